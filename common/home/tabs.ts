/** The dashboard tabs (spec §2.3: 推荐应用, 资源下载, 营销图库, 直播; §7.8 tabList) and their titles. */
export const TABS = {
  app: '推荐应用',
  resource: '资源下载',
  gallery: '营销图库',
  live: '直播',
} as const;
export type Tab = keyof typeof TABS;
