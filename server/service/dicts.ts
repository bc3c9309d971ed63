import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';

/**
 * The dictionaries of the 服务中心 schemas (x-dict), added at start when missing (also to a database made before
 * this module existed) and never changed afterwards: an administrator may relabel them in 字典管理.
 */
export const SERVICE_DICTS: ModuleDict[] = [
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
  // 工单 (工单管理 / 提交工单, schemas/service/service_work_order*.json): the values of common/service/workOrders.ts.
  {
    type: 'service_work_order_status',
    name: '工单状态',
    entries: [
      ['0', '待处理', 'warning'],
      ['1', '处理中', 'primary'],
      ['2', '已处理', 'success'],
      ['3', '已驳回', 'danger'],
    ],
  },
  {
    type: 'service_work_order_form',
    name: '工单类型',
    entries: [
      ['cardRefund', '会员卡退款', 'warning'],
      ['orderRefund', '订单退款', 'warning'],
      ['changeScore', '修改分数', 'primary'],
      ['changeYear', '修改年份', 'primary'],
      ['changePermission', '修改权限', 'primary'],
      ['changePhone', '修改手机号', 'primary'],
      ['feedback', '意见反馈', 'info'],
      ['cancelUser', '注销用户', 'danger'],
    ],
  },
];

export const ensureServiceDicts = (env: EngineEnv) => ensureModuleDicts(env, SERVICE_DICTS);
