import { DISCIPLINE_GRADES, gradeMeaning } from '@common/volunteer/disciplineGrades';
import type { SchoolReferenceView } from '@common/volunteer/schoolReference';
import { Alert, Space, Tag, Typography } from 'antd';

/**
 * 院校百科 parts of 院校详情 (issue 27): the 软科 rank in the profile, the 双一流 disciplines and the 第四轮学科评估 grades,
 * from the `reference` of schoolHome (server/volunteer/reference.ts). Every figure carries its year and source; a
 * part without data is not rendered (the dialog leaves its tab out).
 */

/** 「软科中国大学排名 2026：第 2 名」 with category and score, or nothing for a school not on the list. */
export function SchoolRank({ reference }: { reference: SchoolReferenceView }) {
  const b = reference.bcur;
  if (!b) return null;
  return (
    <Space wrap size={4} className="zy-school-rank">
      <Typography.Text strong>
        软科中国大学排名 {b.year}：{b.rankNumeric == null ? `${b.rank} 名` : `第 ${b.rank} 名`}
      </Typography.Text>
      <Typography.Text type="secondary">
        （{b.category}类{b.score == null ? '' : `，总分 ${b.score}`}
        {reference.campusOf ? `，${reference.campusOf}的排名` : ''}）
      </Typography.Text>
    </Space>
  );
}

function CampusNote({ reference }: { reference: SchoolReferenceView }) {
  return reference.campusOf ? <Typography.Paragraph type="secondary">以下为{reference.campusOf}的数据（本校为其校区或院部）。</Typography.Paragraph> : null;
}

/** 双一流建设学科 (第二轮, 2022) as tags; 北大 and 清华 determine theirs themselves, which the list does not name. */
export function DoubleFirstClassPanel({ reference }: { reference: SchoolReferenceView }) {
  const d = reference.doubleFirstClass;
  if (!d) return null;
  return (
    <div style={{ minHeight: 120 }}>
      <CampusNote reference={reference} />
      <Typography.Paragraph strong>第二轮“双一流”建设学科（{d.year}年公布）</Typography.Paragraph>
      {d.selfDetermined ? <Typography.Paragraph>自主确定建设学科并自行公布（教育部名单未列出具体学科）。</Typography.Paragraph> : null}
      {d.disciplines.length ? (
        <Space wrap size={[6, 8]} aria-label="双一流建设学科">
          {d.disciplines.map((name) => (
            <Tag key={name} color="gold">
              {name}
            </Tag>
          ))}
        </Space>
      ) : null}
    </div>
  );
}

/** 第四轮学科评估 (2017), grouped by grade with the grade's meaning; A+ stands out. */
export function EvaluationPanel({ reference }: { reference: SchoolReferenceView }) {
  const e = reference.evaluation;
  if (e.list.length === 0) return null;
  return (
    <div style={{ minHeight: 120 }}>
      <CampusNote reference={reference} />
      <Typography.Paragraph strong>
        {e.round}（{e.year}年）：公布 {e.list.length} 个一级学科
      </Typography.Paragraph>
      {e.note ? <Alert type="info" showIcon message={e.note} style={{ marginBottom: 12 }} /> : null}
      {DISCIPLINE_GRADES.map((grade) => {
        const names = e.list.filter((x) => x.grade === grade);
        if (!names.length) return null;
        const top = grade === 'A+';
        return (
          <div key={grade} className="zy-evaluation-grade" data-grade={grade} style={{ display: 'flex', gap: 8, marginBottom: 8 }}>
            <div style={{ flex: '0 0 150px' }}>
              <Tag color={top ? 'red' : grade.startsWith('A') ? 'volcano' : grade.startsWith('B') ? 'blue' : 'default'} style={{ fontWeight: top ? 700 : 400 }}>
                {grade}
              </Tag>
              <Typography.Text type="secondary">{gradeMeaning(grade)}</Typography.Text>
            </div>
            <Space wrap size={[6, 6]} aria-label={`${grade} 学科`}>
              {names.map((x) => (
                <Tag key={x.disciplineCode} color={top ? 'red' : undefined} bordered={!top}>
                  {x.disciplineName}
                </Tag>
              ))}
            </Space>
          </div>
        );
      })}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        等级含义为该校该学科在全国参评学科点中的位置；结果只公布前 70% 的学科点，未列出的学科为未参评或未进入前 70%。
      </Typography.Paragraph>
    </div>
  );
}
