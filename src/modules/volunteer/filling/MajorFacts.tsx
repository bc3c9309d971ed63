import { CONTROLLED_MEANING, type MajorFacts as Facts, SPECIAL_MEANING } from '@common/volunteer/majorEncyclopaedia';
import { Alert, Descriptions, Tag, Tooltip, Typography } from 'antd';

/**
 * The 本科专业目录 facts of 专业详情 (issue 27): a major's code, 门类, 专业类, degrees and T/K flags with their meaning,
 * or, for a 专业类 name, the class and its majors. Says which rule placed a printed name when it is not the catalogue's.
 */
export function MajorFacts({ facts, asked }: { facts: Facts | null; asked: string }) {
  if (!facts) {
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message={`「${asked}」在2025年本科专业目录中没有对应的专业或专业类（如试验班、职业本科专业），下面列出以这个名称投档的院校。`}
      />
    );
  }
  const m = facts.major;
  const edition = `普通高等学校本科专业目录（${facts.edition}年）`;
  const yesNo = (v: boolean, meaning: string) => (
    <Tooltip title={meaning}>
      <span>{v ? <Tag color="orange">是</Tag> : '否'}</span>
    </Tooltip>
  );
  return (
    <div data-testid="major-facts" style={{ marginBottom: 12 }}>
      <Descriptions size="small" column={3} bordered title={m ? `目录信息 · ${m.name}` : `目录信息 · ${facts.className}`}>
        {m ? <Descriptions.Item label="专业代码">{m.code}</Descriptions.Item> : null}
        <Descriptions.Item label="门类">
          {facts.disciplineName}（{facts.disciplineCode}）
        </Descriptions.Item>
        <Descriptions.Item label="专业类">
          {facts.className}（{facts.classCode}）
        </Descriptions.Item>
        {m ? (
          <>
            <Descriptions.Item label="学位授予门类">{m.degrees.join(' 或 ')}</Descriptions.Item>
            <Descriptions.Item label="特设专业">{yesNo(m.special, SPECIAL_MEANING)}</Descriptions.Item>
            <Descriptions.Item label="国家控制布点专业">{yesNo(m.controlled, CONTROLLED_MEANING)}</Descriptions.Item>
            {m.note ? <Descriptions.Item label="目录注释">{m.note}</Descriptions.Item> : null}
          </>
        ) : null}
        <Descriptions.Item label="依据" span={m?.note ? 2 : 3}>
          {edition}
        </Descriptions.Item>
      </Descriptions>
      {facts.rule !== 'major' || facts.asked !== m?.name ? (
        <Typography.Paragraph type="secondary" style={{ margin: '6px 0 0' }}>
          匹配方式：{facts.ruleText}
        </Typography.Paragraph>
      ) : null}
      {m ? null : (
        <Typography.Paragraph style={{ margin: '6px 0 0' }}>
          本类专业（{facts.classMajors.length} 个）：{facts.classMajors.map((x) => x.name).join('、')}
        </Typography.Paragraph>
      )}
    </div>
  );
}
