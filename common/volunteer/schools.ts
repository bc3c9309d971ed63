/** A school as the catalogue knows it (server/volunteer/catalogue.ts), and as 院校主页 (schoolHome) answers it. */
export interface SchoolInfo {
  schoolCode: string;
  name: string;
  province: string | null;
  city: string | null;
  level: string | null;
  tags: string[];
  isPublic: number | null;
  /** 办学性质 (公办 / 民办 / 中外合作办学) from the national list; null when unknown. */
  ownership: string | null;
}
