import { describe, expect, it } from 'vitest';
import { routeForComponent, withQuery } from '@/modules/home/routeFor';
import type { FlatRoute } from '@/router/types';

const route = (fullPath: string, component: string): FlatRoute => ({
  name: fullPath,
  fullPath,
  component,
  meta: null,
  query: undefined,
  hidden: false,
  inLayout: true,
});

describe('home to-do links', () => {
  const routes = [route('/volunteer/examine', 'Examine/index'), route('/volunteer/appointment', '/appointment/index.vue')];

  it('finds the page by its menu component in the user own menu, however the menu spells it', () => {
    expect(routeForComponent(routes, 'Examine/index')?.fullPath).toBe('/volunteer/examine');
    expect(routeForComponent(routes, 'appointment/index')?.fullPath).toBe('/volunteer/appointment');
    expect(routeForComponent(routes, 'finance/withdraw/index')).toBeUndefined();
  });

  it('carries the filter as a query string', () => {
    expect(withQuery('/volunteer/appointment', { status: 'pending', dateFrom: '1', dateTo: '2' })).toBe(
      '/volunteer/appointment?status=pending&dateFrom=1&dateTo=2',
    );
    expect(withQuery('/x', {})).toBe('/x');
  });
});
