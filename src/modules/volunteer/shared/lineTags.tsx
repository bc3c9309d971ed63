import type { LineFlag } from '@common/volunteer/chances';
import { Tag, Tooltip } from 'antd';
import type { CSSProperties } from 'react';

const SMALL: CSSProperties = { marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', padding: '0 3px', flex: 'none' };

interface Flagged {
  isNew?: boolean;
  flags?: readonly (LineFlag | string)[];
  year?: number | null;
}

/** 新增: the line has no earlier year (the server's isNew, or the engine's 'new-line' flag). */
export const isNewLine = (r: Flagged): boolean => Boolean(r.isNew) || Boolean(r.flags?.includes('new-line'));

/**
 * 选科要求未知: the server's flag. (A null subjectReq alone is not enough: a data set without any requirement, like the
 * demo seed, says so once in the answer's notes rather than on every line.)
 */
export const isSubjectUnknown = (r: Flagged): boolean => Boolean(r.flags?.includes('subject-unknown'));

/** The 新增 and 选科要求未知 tags of a line, each with what it means for the expert. */
export function LineFlagTags({ row }: { row: Flagged }) {
  const year = row.year != null ? `${row.year}年` : '今年';
  return (
    <>
      {isNewLine(row) ? (
        <Tooltip title={`${year}新增的专业：往年没有录取数据，录取率按同类专业的更宽波动估算，请谨慎参考`}>
          <Tag bordered={false} color="purple" style={SMALL}>
            新增
          </Tag>
        </Tooltip>
      ) : null}
      {isSubjectUnknown(row) ? (
        <Tooltip title="数据中没有该专业的选考科目要求：智能填报不会自动选用，手动加入前请按院校招生章程核对选科">
          <Tag bordered={false} color="orange" style={SMALL}>
            选科要求未知
          </Tag>
        </Tooltip>
      ) : null}
    </>
  );
}

/** 选科 as the line states it ("不限" stays "不限"); nothing when unknown (the tag says so). */
export function SubjectReq({ subjectReq }: { subjectReq?: string | null }) {
  if (!subjectReq) return null;
  return <span style={{ fontSize: 12, color: '#888', whiteSpace: 'nowrap', flex: 'none' }}>选科 {subjectReq}</span>;
}

/** 失效: the plan holds a line that left the catalogue; the reason says to replace it. */
export function StaleTag({ reason }: { reason?: string | null }) {
  return (
    <Tooltip title={reason || '该志愿不在当前招生目录中，请替换'}>
      <Tag color="red" style={{ ...SMALL, fontWeight: 600 }}>
        失效
      </Tag>
    </Tooltip>
  );
}

/** 办学性质 when it is not 公办 (民办, 中外合作办学: fees are higher). */
export function OwnershipTag({ ownership }: { ownership?: string | null }) {
  if (!ownership || ownership === '公办') return null;
  return (
    <Tag bordered={false} color="geekblue" style={SMALL}>
      {ownership}
    </Tag>
  );
}
