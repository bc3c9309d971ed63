import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';
import { dictionary } from '../system/index.js';

/**
 * The dictionaries of the 服务中心 schemas (x-dict), added at start when missing (also to a database made before
 * this module existed) and never changed afterwards: an administrator may relabel them in 字典管理.
 */
export const SERVICE_DICTS: ModuleDict[] = [
  dictionary('service_publish_status', '上架状态', ['1', '已上架', 'success'], ['0', '已下架', 'info']),
  dictionary('service_yes_no', '服务中心是否', ['1', '是', 'primary'], ['0', '否', 'info']),
  dictionary(
    'service_app_category',
    '应用分类',
    ['1', '填报工具', 'primary'],
    ['2', '测评', 'success'],
    ['3', '营销推广', 'warning'],
    ['4', '门店管理', 'info'],
  ),
  dictionary('service_help_category', '帮助分类', ['1', '会员卡', 'primary'], ['2', '志愿填报', 'success'], ['3', '工单', 'warning'], ['4', '财务', 'info']),
  dictionary(
    'service_gallery_category',
    '营销素材分类',
    ['1', '院校详情', 'primary'],
    ['2', '专业详情一', 'success'],
    ['3', '专业详情二', 'success'],
    ['4', '专业详情三', 'success'],
    ['5', '专业详情四', 'success'],
    ['6', '专业详情五', 'success'],
    ['7', '院校排名', 'warning'],
  ),
  dictionary(
    'service_resource_category',
    '资源分类',
    ['1', '服务手册', 'primary'],
    ['2', '政策文件', 'success'],
    ['3', '表格模板', 'warning'],
    ['4', '培训资料', 'info'],
  ),
  // 工单 (工单管理 / 提交工单, schemas/service/service_work_order*.json): the values of common/service/workOrders.ts.
  dictionary(
    'service_work_order_status',
    '工单状态',
    ['0', '待处理', 'warning'],
    ['1', '处理中', 'primary'],
    ['2', '已处理', 'success'],
    ['3', '已驳回', 'danger'],
  ),
  dictionary(
    'service_work_order_form',
    '工单类型',
    ['cardRefund', '会员卡退款', 'warning'],
    ['orderRefund', '订单退款', 'warning'],
    ['changeScore', '修改分数', 'primary'],
    ['changeYear', '修改年份', 'primary'],
    ['changePermission', '修改权限', 'primary'],
    ['changePhone', '修改手机号', 'primary'],
    ['feedback', '意见反馈', 'info'],
    ['cancelUser', '注销用户', 'danger'],
  ),
];

export const ensureServiceDicts = (env: EngineEnv) => ensureModuleDicts(env, SERVICE_DICTS);
