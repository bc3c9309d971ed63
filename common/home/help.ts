/** One published 帮助中心 article: answered by server/home/help.ts, listed by src/modules/home/helpCenter/. */
export interface HelpItem {
  helpId: number;
  title: string;
  category: string;
  keywords: string | null;
  /** Rich text, sanitised by the server when it was saved (schema engine). */
  content: string;
  updateTime: number | null;
}
