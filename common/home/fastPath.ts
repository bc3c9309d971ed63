/** 快捷菜单 (index/fastPath): a page of the user's own menu they may pin, and the answer of GET/POST fastPath. */
export interface HeldPage {
  menuId: number;
  menuName: string;
  /** Full route path, e.g. /volunteer/examine (what the console's router has). */
  path: string;
  icon: string;
  component: string | null;
}

export interface FastPath {
  /** The user's shortcuts, in their order (pages no longer held are left out). */
  picked: HeldPage[];
  /** Every page they may pick from. */
  choices: HeldPage[];
  max: number;
}
