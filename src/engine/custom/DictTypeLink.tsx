import { Link } from 'react-router';

/** 字典类型 column of 字典管理: the type, linking to its 字典数据 screen (the hidden route /system/dict-data/index/:dictId). */
export function DictTypeLink({ dictId, dictType }: { dictId: unknown; dictType: unknown }) {
  return <Link to={`/system/dict-data/index/${String(dictId)}`}>{String(dictType ?? '')}</Link>;
}
