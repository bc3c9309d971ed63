import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * /redirect/{path}: the refresh helper (RuoYi). Leaving a page for this route and coming straight back re-enters it,
 * e.g. home after the last tab is closed.
 */
export default function RedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = location.pathname.replace(/^\/redirect/, '') || '/index';
    navigate(target + location.search, { replace: true });
  }, [location.pathname, location.search, navigate]);
  return null;
}
