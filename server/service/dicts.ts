import { sql } from 'kysely';
import type { EngineEnv } from '../engine/context.js';
import { prepareSeed } from '../engine/records.js';
import { insertRow } from '../engine/store.js';

/**
 * The dictionaries of the 服务中心 schemas (x-dict), added at start when missing (also to a database made before
 * this module existed) and never changed afterwards: an administrator may relabel them in 字典管理.
 */
export const SERVICE_DICTS: Array<{ type: string; name: string; entries: Array<[value: string, label: string, listClass: string]> }> = [
  {
    type: 'service_publish_status',
    name: '上架状态',
    entries: [
      ['1', '已上架', 'success'],
      ['0', '已下架', 'info'],
    ],
  },
  {
    type: 'service_yes_no',
    name: '服务中心是否',
    entries: [
      ['1', '是', 'primary'],
      ['0', '否', 'info'],
    ],
  },
  {
    type: 'service_app_category',
    name: '应用分类',
    entries: [
      ['1', '填报工具', 'primary'],
      ['2', '测评', 'success'],
      ['3', '营销推广', 'warning'],
      ['4', '门店管理', 'info'],
    ],
  },
  {
    type: 'service_help_category',
    name: '帮助分类',
    entries: [
      ['1', '会员卡', 'primary'],
      ['2', '志愿填报', 'success'],
      ['3', '工单', 'warning'],
      ['4', '财务', 'info'],
    ],
  },
  {
    type: 'service_gallery_category',
    name: '营销素材分类',
    entries: [
      ['1', '院校详情', 'primary'],
      ['2', '专业详情一', 'success'],
      ['3', '专业详情二', 'success'],
      ['4', '专业详情三', 'success'],
      ['5', '专业详情四', 'success'],
      ['6', '专业详情五', 'success'],
      ['7', '院校排名', 'warning'],
    ],
  },
  {
    type: 'service_resource_category',
    name: '资源分类',
    entries: [
      ['1', '服务手册', 'primary'],
      ['2', '政策文件', 'success'],
      ['3', '表格模板', 'warning'],
      ['4', '培训资料', 'info'],
    ],
  },
];

export async function ensureServiceDicts(env: EngineEnv): Promise<void> {
  const typeEntity = env.entities.get('sys_dict_type');
  const dataEntity = env.entities.get('sys_dict_data');
  if (!typeEntity || !dataEntity) return;
  const have = await sql<{ dict_type: string }>`select dict_type from sys_dict_type`.execute(env.k);
  const existing = new Set(have.rows.map((r) => r.dict_type));
  for (const d of SERVICE_DICTS) {
    if (existing.has(d.type)) continue;
    try {
      await env.k.transaction().execute(async (trx) => {
        await insertRow(trx, typeEntity, prepareSeed(typeEntity, { dictName: d.name, dictType: d.type, status: '0', remark: `${d.name}列表` }));
        for (const [i, [value, label, listClass]] of d.entries.entries()) {
          const row = { dictSort: i + 1, dictLabel: label, dictValue: value, dictType: d.type, listClass, isDefault: i === 0 ? 'Y' : 'N', status: '0' };
          await insertRow(trx, dataEntity, prepareSeed(dataEntity, row));
        }
      });
    } catch (err) {
      // Another server starting at the same moment added it first (unique dict_type): nothing to do.
      const again = await sql<{ n: number }>`select count(*) as n from sys_dict_type where dict_type = ${d.type}`.execute(env.k);
      if (!Number(again.rows[0]?.n)) throw err;
    }
  }
}
