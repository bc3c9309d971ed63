/** One release of 版本管理 as the version dialog, /log and the update-log drawer list it (spec §3 Version info). */
export interface VersionHistoryItem {
  id: number;
  user: string;
  time: number;
  filenums: number;
  tag: string;
  log: string;
}

/** Spec §3 Version info (§7.8 systermUpdateList): the newest release and the change-log history, newest first. */
export interface VersionInfo {
  appId: string;
  user: string;
  toolsign: string;
  publish_time: number | null;
  lasttag: string;
  domainName: string;
  historylog: VersionHistoryItem[];
}
