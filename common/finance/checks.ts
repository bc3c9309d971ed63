/**
 * Pure checks of finance input, shared by the server (authoritative) and the console (early feedback).
 * Each answers the Chinese message of the first problem, or null when the value is acceptable.
 */

/** Luhn (mod 10) check digit test. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card numbers are stored and compared without the spaces people type between groups. */
export const normaliseCardNo = (v: string) => v.replace(/[\s-]/g, '');

/**
 * A bank account number: 12 to 19 digits. Bank CARDS (16–19 digits issued under UnionPay 62, Visa 4 or
 * Mastercard 5 prefixes) carry a Luhn check digit, which must be right; corporate (对公) account numbers follow each
 * bank's own scheme without a common check digit, so only their length and digits are checked (docs/finance.md).
 */
export function bankCardProblem(raw: string): string | null {
  const v = normaliseCardNo(raw);
  if (!v) return '请输入银行卡号';
  if (!/^\d{12,19}$/.test(v)) return '银行卡号应为 12 到 19 位数字';
  if (v.length >= 16 && /^(62|4|5)/.test(v) && !luhnValid(v)) return '银行卡号校验失败，请核对卡号';
  return null;
}

/** 纳税人识别号: 15, 18 or 20 characters of digits and upper-case letters (统一社会信用代码 is the 18-character form). */
export function taxNoProblem(raw: string): string | null {
  const v = raw.trim();
  if (!v) return '请输入纳税人识别号';
  if (!/^[0-9A-Z]+$/.test(v) || ![15, 18, 20].includes(v.length)) return '纳税人识别号应为 15、18 或 20 位数字或大写字母';
  return null;
}

/** Withdrawal states (the spec leaves them open; docs/finance.md). */
export const WITHDRAW_STATUS: Record<number, string> = { 0: '待审核', 1: '已通过', 2: '已驳回', 3: '已打款' };
/** Invoice states (spec §4): 0 待开票, 1 已开票, 2 已驳回. */
export const INVOICE_STATUS: Record<number, string> = { 0: '待开票', 1: '已开票', 2: '已驳回' };

/**
 * Fen to the console's yuan text: thousands grouped, two decimals (1,000,000.00), the same on cards, figures and
 * ledger tables. Built from the integer digits, so no float rounding ever shows.
 */
export function yuanText(fen: number): string {
  const abs = Math.abs(Math.round(fen));
  const whole = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${fen < 0 && abs > 0 ? '-' : ''}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Yuan typed by a person to integer fen: at most two decimals, positive. Null when it is not such an amount.
 * Done on the digits (not by multiplying a float) so 0.29 yuan is 29 fen exactly.
 */
export function yuanToFen(text: string): number | null {
  const m = /^\s*(\d{1,12})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  const fen = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return fen > 0 && Number.isSafeInteger(fen) ? fen : null;
}
