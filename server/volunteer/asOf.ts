/**
 * ADMISSION_AS_OF=<year>: the server answers as it would have after that year's admissions (issue 23). It reads no
 * admission line, rank table or batch line of a later year, fits (picks) its model on years up to it, and students
 * sit the exam of the year after. Unset: the newest loaded year. This is how an expert (and the replay) asks "what
 * would we have said then?".
 *
 * Read from the environment on every call (a string compare when unchanged), so a test can set it for one database.
 */
let seen: string | undefined;
let parsed: number | null = null;

export function admissionAsOf(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.ADMISSION_AS_OF?.trim() || undefined;
  if (raw === seen) return parsed;
  const year = raw == null ? null : Number(raw);
  if (year != null && (!Number.isInteger(year) || year < 2000 || year > 2100)) {
    throw new Error(`ADMISSION_AS_OF must be a year such as 2025 (got "${raw}")`);
  }
  seen = raw;
  parsed = year;
  return parsed;
}

/** Whether a data year is visible under the as-of year. */
export function visibleYear(year: number, asOf = admissionAsOf()): boolean {
  return asOf == null || year <= asOf;
}
