import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';
import { dictionary } from '../system/index.js';

/**
 * The dictionaries of the content schemas (x-dict). They are added at start when missing — also to a database made
 * before this module existed, where the x-seed of sys_dict_type / sys_dict_data no longer runs — and never changed
 * afterwards (an administrator may relabel them in 字典管理).
 */
export const CONTENT_DICTS: ModuleDict[] = [
  dictionary('content_publish_status', '发布状态', ['1', '已发布', 'success'], ['0', '未发布', 'info']),
  dictionary('content_banner_position', '轮播位置', ['1', '官网首页', 'primary'], ['2', '课堂页', 'success'], ['3', 'App 首页', 'warning']),
  dictionary(
    'content_news_category',
    '资讯分类',
    ['1', '政策解读', 'primary'],
    ['2', '填报指南', 'success'],
    ['3', '院校动态', 'warning'],
    ['4', '机构新闻', 'info'],
  ),
  dictionary('content_read_status', '阅读状态', ['0', '未读', 'warning'], ['1', '已读', 'success']),
  dictionary('content_handle_status', '处理状态', ['0', '待处理', 'warning'], ['1', '已处理', 'success']),
  dictionary('content_cooperate_status', '合作审核状态', ['0', '待审核', 'warning'], ['1', '已通过', 'success'], ['2', '未通过', 'danger']),
  dictionary('content_agreement_type', '协议类型', ['1', '用户协议', 'primary'], ['2', '会员服务协议', 'success'], ['3', '付费咨询协议', 'info']),
  dictionary('content_subject_type', '科类', ['1', '物理类', 'primary'], ['2', '历史类', 'success'], ['3', '综合', 'info']),
  dictionary('live_status', '直播状态', ['0', '预告', 'info'], ['1', '直播中', 'danger'], ['2', '已结束', 'default']),
  dictionary(
    'content_ad_slot',
    '广告位',
    ['1', 'App 开屏', 'primary'],
    ['2', 'App 首页弹窗', 'success'],
    ['3', 'App 首页横幅', 'warning'],
    ['4', '资讯详情页', 'info'],
  ),
  dictionary('content_href_group', '链接分组', ['1', '常用工具', 'primary'], ['2', '官方渠道', 'success'], ['3', '合作伙伴', 'info']),
  dictionary('site_ad_position', '官网广告位置', ['1', '首页中部横幅', 'primary'], ['2', '资讯页顶部', 'success']),
  dictionary('site_network_type', '网点类型', ['1', '直营中心', 'primary'], ['2', '加盟网点', 'success'], ['3', '合作学校', 'info']),
  dictionary(
    'site_library_category',
    '资料分类',
    ['1', '政策文件', 'primary'],
    ['2', '招生计划', 'success'],
    ['3', '填报指南', 'warning'],
    ['4', '历年数据', 'info'],
  ),
];

export const ensureContentDicts = (env: EngineEnv) => ensureModuleDicts(env, CONTENT_DICTS);
