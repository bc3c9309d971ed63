import { SettingsPage } from './SettingsPage';

/** 测评设置 (system/evaluationSettings/index): the student assessments (兴趣/性格/专业倾向测评) and their reports. */
export default function EvaluationSettings() {
  return (
    <SettingsPage
      group="evaluation"
      title="测评设置"
      description="学生选科与专业倾向测评的开放状态、次数与结果有效期，以及测评报告中的说明文字。"
      editPermission="system:evaluation:edit"
      fields={[
        { key: 'evaluationEnabled', label: '测评开放', widget: 'switch', on: '开放', off: '关闭', help: '关闭后学生无法开始新的测评，已有报告仍可查看' },
        { key: 'maxAttempts', label: '每人测评次数上限', widget: 'number', min: 0, max: 99, suffix: '次', help: '0 表示不限次数' },
        { key: 'resultValidDays', label: '测评结果有效期(天)', widget: 'number', min: 1, max: 3650, suffix: '天', help: '超过有效期的测评结果需要重新测评' },
        { key: 'reportNote', label: '报告说明', widget: 'richText', help: '显示在测评报告末尾' },
      ]}
    />
  );
}
