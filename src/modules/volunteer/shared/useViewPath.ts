import { useSession } from '@/session/sessionStore';

/** Component strings of the volunteer screens in the server menu. */
export const VIEW = {
  filling: 'Filling/index',
  students: 'volunteer/index',
  examine: 'Examine/index',
} as const;

/**
 * The route path of a menu screen the user may open (menus decide paths, so none is hard-coded), or null when the
 * user's menu does not include it.
 */
export function useViewPath(component: string): string | null {
  const { routes } = useSession();
  return routes.find((r) => r.component.replace(/^\//, '') === component)?.fullPath ?? null;
}

/** The filling page for one student: `/volunteer/Filling?studentId=1`. */
export function fillingHref(base: string, studentId: number): string {
  return `${base}?studentId=${studentId}`;
}
