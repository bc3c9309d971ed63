/** A RuoYi TreeSelect node (menus, departments): server/system/ builds the trees, the role and user screens check them. */
export interface TreeNode {
  id: number;
  label: string;
  /** Only where there are children (tree widgets show no expander on a leaf). */
  children?: TreeNode[];
}
