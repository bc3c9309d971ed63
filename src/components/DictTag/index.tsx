import { Tag } from 'antd';
import { type DictOption, useDict } from './useDict';

/**
 * Dictionary tag display (RuoYi dict-tag, spec §2.4): each value shown by its dictionary label, as an antd Tag
 * coloured by the entry's listClass (default / primary / success / info / warning / danger) with its cssClass
 * applied; an entry with an empty listClass and no cssClass is plain text. Values not in the dictionary are shown as
 * they are. Several values may be given as an array or a separated string.
 */
export const TAG_COLOR: Record<string, string | undefined> = {
  default: 'default',
  primary: 'processing',
  success: 'success',
  info: 'default',
  warning: 'warning',
  danger: 'error',
};

export interface DictTagProps {
  /** The dictionary type (loaded through useDict) … */
  type?: string;
  /** … or the options themselves. */
  options?: DictOption[];
  value: unknown;
  separator?: string;
}

function valuesOf(value: unknown, separator: string): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.map(String);
  return String(value)
    .split(separator)
    .filter((v) => v !== '');
}

export function DictTag({ type, options: given, value, separator = ',' }: DictTagProps) {
  const loaded = useDict(given ? undefined : type);
  const options = given ?? loaded;
  const values = valuesOf(value, separator);
  if (values.length === 0) return null;
  const unmatched = values.filter((v) => !options.some((o) => o.value === v));
  return (
    <span className="dict-tag">
      {options
        .filter((o) => values.includes(o.value))
        .map((o) =>
          !o.elTagType && !o.elTagClass ? (
            <span key={o.value} className={o.elTagClass || undefined}>
              {o.label}
            </span>
          ) : (
            <Tag key={o.value} color={TAG_COLOR[o.elTagType] ?? (o.elTagType || undefined)} className={o.elTagClass || undefined} data-dict-value={o.value}>
              {o.label}
            </Tag>
          ),
        )}
      {unmatched.length > 0 && <span>{unmatched.join(' ')}</span>}
    </span>
  );
}

export { clearDictCache, type DictOption, dictLabel, loadDict, useDict } from './useDict';
