/**
 * 备忘录: a write in the generic list (the override's afterWrite) tells the 到期提醒 panel to read the due notes again;
 * 完成 in the panel tells the list to reload. A tiny publish / subscribe between the two halves of one page.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function memosChanged(): void {
  for (const l of listeners) l();
}

export function onMemosChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
