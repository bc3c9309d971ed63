import { DownloadOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { downloadAppraisal } from '@/api/customer';
import type { ResourceOverride } from '@/engine/resource';
import { parseTime } from '@/utils/format';

/** The six Holland dimensions of a result's `dims` (server/customer/appraisal.ts). */
const DIMS: Record<string, string> = { R: '现实型', I: '研究型', A: '艺术型', S: '社会型', E: '企业型', C: '常规型' };

/**
 * 测评管理 (cus_appraisal, manage/appraisal/index): the generic read-only list of schemas/customer/cus_appraisal.json
 * with the Holland code as a tag, the dimension scores written out, 已过期 for an expired result, and 下载结果 (the
 * PDF report) per row.
 */
export const appraisalOverride: ResourceOverride = {
  cells: {
    mobile: (value) => (value == null || value === '' ? '--' : String(value)),
    code: (value) => <Tag color="blue">{String(value ?? '')}</Tag>,
    dims: (value) =>
      Object.entries((value ?? {}) as Record<string, number>)
        .map(([k, v]) => `${DIMS[k] ?? k} ${v}`)
        .join('，'),
    expireTime: (value, record) => (record.valid ? parseTime(value as number, '{y}-{m}-{d}') : <Tag>已过期</Tag>),
  },
  rowActions: [
    {
      key: 'download',
      label: '下载结果',
      permission: 'manage:appraisal:download',
      icon: <DownloadOutlined />,
      onClick: async (record) => {
        await downloadAppraisal({ appraisalId: Number(record.appraisalId), studentName: String(record.studentName ?? '') }).catch(() => undefined);
      },
    },
  ],
};
