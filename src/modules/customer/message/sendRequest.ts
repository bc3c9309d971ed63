import { createActionChannel } from '@/utils/actionChannel';

/**
 * 消息管理's 发送消息 is a toolbar callback (override.tsx); the dialog lives in the list page (MessagePage). An action
 * channel (src/utils/actionChannel.ts) carries the request — with the list's refresh — from one to the other.
 */
export interface SendRequest {
  refresh: () => void;
}

const channel = createActionChannel<SendRequest>();

export const requestSend = channel.request;
export const useSendRequest = channel.use;
