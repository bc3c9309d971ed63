import { describe, expect, it } from 'vitest';
import { formatWan, handleTree, isArchive, isExternal, parseTime } from '@/utils/format';

describe('formatWan', () => {
  it('shows 10000 and more in ten-thousands with one decimal and w', () => {
    expect(formatWan(12345)).toBe('1.2w');
    expect(formatWan(10000)).toBe('1.0w');
    expect(formatWan(15500)).toBe('1.6w');
    expect(formatWan(1234567)).toBe('123.5w');
    expect(formatWan('23456')).toBe('2.3w');
  });

  it('leaves smaller values unchanged', () => {
    expect(formatWan(9999)).toBe(9999);
    expect(formatWan(0)).toBe(0);
    expect(formatWan('9999')).toBe('9999');
    expect(formatWan(-20000)).toBe(-20000);
  });

  it('passes non-numbers through', () => {
    expect(formatWan('abc')).toBe('abc');
    expect(formatWan('')).toBe('');
    expect(formatWan(null)).toBeNull();
    expect(formatWan(undefined)).toBeUndefined();
    expect(formatWan(Number.NaN)).toBeNaN();
  });
});

describe('parseTime', () => {
  const local = new Date(2024, 0, 2, 3, 4, 5); // 2024-01-02 03:04:05 local time

  it('formats milliseconds as YYYY-MM-DD HH:mm:ss', () => {
    expect(parseTime(local.getTime())).toBe('2024-01-02 03:04:05');
  });

  it('takes a 10-digit number as Unix seconds', () => {
    expect(parseTime(Math.floor(local.getTime() / 1000))).toBe('2024-01-02 03:04:05');
    expect(parseTime(String(Math.floor(local.getTime() / 1000)))).toBe('2024-01-02 03:04:05');
  });

  it('accepts Date objects and numeric strings in ms', () => {
    expect(parseTime(local)).toBe('2024-01-02 03:04:05');
    expect(parseTime(String(local.getTime()))).toBe('2024-01-02 03:04:05');
  });

  it('accepts date text as local time (dash, T and millisecond forms)', () => {
    expect(parseTime('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(parseTime('2024-01-02T03:04:05.123')).toBe('2024-01-02 03:04:05');
    expect(parseTime('2024-01-02')).toBe('2024-01-02 00:00:00');
  });

  it('honours an explicit zone in ISO text', () => {
    const iso = '2024-06-01T12:00:00Z';
    const d = new Date(iso);
    const pad = (n: number) => String(n).padStart(2, '0');
    const expected = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    expect(parseTime(iso)).toBe(expected);
  });

  it('supports custom patterns and the weekday key', () => {
    expect(parseTime(local, '{y}/{m}/{d}')).toBe('2024/01/02');
    expect(parseTime(local, '{h}:{i}')).toBe('03:04');
    expect(parseTime(local, '星期{a}')).toBe('星期二');
  });

  it('returns null for empty or invalid input', () => {
    expect(parseTime(null)).toBeNull();
    expect(parseTime(undefined)).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime('not a date')).toBeNull();
    expect(parseTime(new Date(Number.NaN))).toBeNull();
  });
});

describe('handleTree', () => {
  const flat = [
    { id: 1, parentId: 0, label: 'root' },
    { id: 2, parentId: 1, label: 'a' },
    { id: 3, parentId: 1, label: 'b' },
    { id: 4, parentId: 2, label: 'a1' },
    { id: 5, parentId: 99, label: 'orphan' },
  ];

  it('nests nodes under their parent; nodes with an absent parent are roots', () => {
    const tree = handleTree(flat);
    expect(tree).toEqual([
      {
        id: 1,
        parentId: 0,
        label: 'root',
        children: [
          { id: 2, parentId: 1, label: 'a', children: [{ id: 4, parentId: 2, label: 'a1' }] },
          { id: 3, parentId: 1, label: 'b' },
        ],
      },
      { id: 5, parentId: 99, label: 'orphan' },
    ]);
  });

  it('does not mutate the input', () => {
    const copy = structuredClone(flat);
    handleTree(flat);
    expect(flat).toEqual(copy);
  });

  it('uses custom id, parent and children keys, matching ids across number and text', () => {
    const rows = [
      { deptId: '10', pid: null, name: 'HQ' },
      { deptId: 11, pid: '10', name: 'Branch' },
    ];
    expect(handleTree(rows, 'deptId', 'pid', 'kids')).toEqual([{ deptId: '10', pid: null, name: 'HQ', kids: [{ deptId: 11, pid: '10', name: 'Branch' }] }]);
  });

  it('does not loop on duplicate ids', () => {
    const rows = [
      { id: 1, parentId: 0 },
      { id: 1, parentId: 1 },
    ];
    expect(handleTree(rows)).toEqual([{ id: 1, parentId: 0, children: [{ id: 1, parentId: 1 }] }]);
  });

  it('returns an empty list for no data', () => {
    expect(handleTree([])).toEqual([]);
  });
});

describe('isArchive', () => {
  it.each(['a.zip', 'a.rar', 'a.7z', 'a.tar', 'a.gz', 'a.bz2', 'a.xz', 'a.tgz', 'backup.tar.gz', 'disk.iso', 'A.ZIP', 'x.Tar.Gz'])(
    '%s is an archive',
    (name) => {
      expect(isArchive(name)).toBe(true);
    },
  );

  it.each(['a.pdf', 'zip', 'a.zip.txt', 'a.gzip', 'a.7zz', 'report.xlsx', ''])('%s is not an archive', (name) => {
    expect(isArchive(name)).toBe(false);
  });
});

describe('isExternal', () => {
  it.each(['http://a.com', 'https://a.com/x', 'mailto:a@b.c', 'tel:10086', 'HTTPS://A.COM'])('%s is external', (p) => {
    expect(isExternal(p)).toBe(true);
  });

  it.each(['/system/user', 'system/user', 'www.baidu.com', 'ftp://x', 'javascript:alert(1)', ''])('%s is not external', (p) => {
    expect(isExternal(p)).toBe(false);
  });
});
