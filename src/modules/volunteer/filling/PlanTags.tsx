import { ELIGIBILITY_KINDS } from '@common/volunteer/students';
import { Tag, Tooltip } from 'antd';

/** Colours of the 计划类型 tags: eligibility plans stand out (red), open ones are informative. */
const COLOR: Record<string, string> = { 中外合作: 'blue', 师范: 'green', 校企合作: 'cyan' };
const NEEDS: ReadonlySet<string> = new Set(ELIGIBILITY_KINDS);

/** The special-plan tags of a line (地方专项, 中外合作, 师范 …), read by the server from the notes in its name. */
export function PlanTags({ tags }: { tags?: readonly string[] }) {
  if (!tags?.length) return null;
  return (
    <>
      {tags.map((t) => {
        const tag = (
          <Tag
            key={t}
            bordered={false}
            color={NEEDS.has(t) ? 'volcano' : (COLOR[t] ?? 'default')}
            style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', padding: '0 3px', flex: 'none' }}
          >
            {t}
          </Tag>
        );
        return NEEDS.has(t) ? (
          <Tooltip key={t} title={`${t}计划：只对填写了${t}资格的学生开放`}>
            {tag}
          </Tooltip>
        ) : (
          tag
        );
      })}
    </>
  );
}
