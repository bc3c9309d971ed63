import dayjs from 'dayjs';

export const formatTime = (ms: number | null | undefined): string => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');
export const formatDate = (ms: number | null | undefined): string => (ms ? dayjs(ms).format('YYYY-MM-DD') : '--');
export const PAGE_SIZES = [10, 20, 30, 50];
