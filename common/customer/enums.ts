/** Customer enumerations of spec §3: the server names them in its answers and checks them; the console filters by them. */

/** Spec §3 user type: 0 ordinary, 1 application-planning card, 2 further-study card, 3 experience card. */
export const USER_TYPES: Record<number, string> = { 0: '普通用户', 1: '志愿卡用户', 2: '升学卡用户', 3: '体验卡用户' };
/** Spec §3 VIP pay type. */
export const VIP_PAY_TYPES: Record<number, string> = { 0: '普通', 1: '用户绑卡', 2: '后台绑卡', 3: '在线购买', 4: '专家一对一' };
