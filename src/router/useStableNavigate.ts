import { useCallback, useContext } from 'react';
import { type NavigateFunction, UNSAFE_NavigationContext as NavigationContext, type To } from 'react-router';

/**
 * navigate() for the console's frame (menu, navbar, tag bar), the same function for the whole session.
 *
 * React Router's useNavigate reads the current location, so every component calling it renders again on each
 * navigation, memo or not: the menu, the navbar with its avatar popover and dialogs, the tag bar, twice per page switch.
 * The frame only navigates to absolute paths (or back), which need no location to resolve; this goes straight to the
 * router's navigator, which never changes.
 */
export function useStableNavigate(): NavigateFunction {
  const { navigator } = useContext(NavigationContext);
  return useCallback(
    ((to: To | number, options?: { replace?: boolean; state?: unknown }) => {
      if (typeof to === 'number') navigator.go(to);
      else if (options?.replace) navigator.replace(to, options.state);
      else navigator.push(to, options?.state);
    }) as NavigateFunction,
    [navigator],
  );
}
