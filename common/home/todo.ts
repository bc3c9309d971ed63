/** One entry of the 首页 to-do panel (待办事项): built by server/home/todo.ts, shown by src/modules/home/todo/. */
export interface TodoItem {
  key: string;
  title: string;
  count: number;
  /** Menu component of the list page (e.g. Examine/index); the console finds its route in the user's own menu. */
  component: string;
  /** The filter the list page applies, as query-string values. */
  query: Record<string, string>;
}
