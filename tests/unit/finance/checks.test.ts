import { bankCardProblem, luhnValid, taxNoProblem, yuanText, yuanToFen } from '@common/finance/checks';
import { describe, expect, it } from 'vitest';

describe('finance checks (common/finance/checks.ts)', () => {
  it('typed yuan become integer fen on the digits, never through a float', () => {
    expect(yuanToFen('0.29')).toBe(29);
    expect(yuanToFen('100.5')).toBe(10_050);
    expect(yuanToFen(' 12 ')).toBe(1_200);
    expect(yuanToFen('1.005')).toBeNull();
    expect(yuanToFen('-1')).toBeNull();
    expect(yuanToFen('0')).toBeNull();
    expect(yuanToFen('1e3')).toBeNull();
    expect(yuanText(10_050)).toBe('100.50');
    // Grouped like the cards and figures (a ledger once showed 1000000.00 beside a card's 1,000,000.00).
    expect(yuanText(100_000_000)).toBe('1,000,000.00');
    expect(yuanText(-123_456)).toBe('-1,234.56');
    expect(yuanText(5)).toBe('0.05');
    expect(yuanText(0)).toBe('0.00');
  });

  it('bank card numbers: 12–19 digits, Luhn for 62 / 4 / 5 cards of 16–19 digits, spaces allowed', () => {
    expect(luhnValid('6222021234567890128')).toBe(true);
    expect(bankCardProblem('6222 0212 3456 7890 128')).toBeNull();
    expect(bankCardProblem('6222021234567890127')).toBe('银行卡号校验失败，请核对卡号');
    expect(bankCardProblem('4111111111111111')).toBeNull();
    expect(bankCardProblem('4111111111111112')).toBe('银行卡号校验失败，请核对卡号');
    expect(bankCardProblem('1602000000000000123')).toBeNull(); // a corporate account: no common check digit
    expect(bankCardProblem('12345678901')).toBe('银行卡号应为 12 到 19 位数字');
    expect(bankCardProblem('6222abc')).toBe('银行卡号应为 12 到 19 位数字');
    expect(bankCardProblem('')).toBe('请输入银行卡号');
  });

  it('tax numbers: 15, 18 or 20 digits and upper-case letters', () => {
    expect(taxNoProblem('91370100MA3C4XXX1K')).toBeNull();
    expect(taxNoProblem('370102123456789')).toBeNull();
    expect(taxNoProblem('91370100ma3c4xxx1k')).toBe('纳税人识别号应为 15、18 或 20 位数字或大写字母');
    expect(taxNoProblem('1234567890123456')).toBe('纳税人识别号应为 15、18 或 20 位数字或大写字母');
  });
});
