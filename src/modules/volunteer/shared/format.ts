import dayjs from 'dayjs';

/** Spec §5: timestamps as YYYY-MM-DD HH:mm:ss; "--" when missing. */
export const formatTime = (ms: number | null | undefined): string => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');

/** 25061 → "25,061"; "--" when missing. */
export const formatRank = (rank: number | null | undefined): string => (rank == null ? '--' : rank.toLocaleString('zh-CN'));

/** School + major, as one label. */
export const optionLabel = (o: { schoolName: string; majorName?: string | null }): string => [o.schoolName, o.majorName].filter(Boolean).join(' · ');
