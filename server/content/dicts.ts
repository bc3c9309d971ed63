import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';

/**
 * The dictionaries of the content schemas (x-dict). They are added at start when missing — also to a database made
 * before this module existed, where the x-seed of sys_dict_type / sys_dict_data no longer runs — and never changed
 * afterwards (an administrator may relabel them in 字典管理).
 */
export const CONTENT_DICTS: ModuleDict[] = [
  {
    type: 'content_publish_status',
    name: '发布状态',
    entries: [
      ['1', '已发布', 'success'],
      ['0', '未发布', 'info'],
    ],
  },
  {
    type: 'content_banner_position',
    name: '轮播位置',
    entries: [
      ['1', '官网首页', 'primary'],
      ['2', '课堂页', 'success'],
      ['3', 'App 首页', 'warning'],
    ],
  },
  {
    type: 'content_news_category',
    name: '资讯分类',
    entries: [
      ['1', '政策解读', 'primary'],
      ['2', '填报指南', 'success'],
      ['3', '院校动态', 'warning'],
      ['4', '机构新闻', 'info'],
    ],
  },
  {
    type: 'content_read_status',
    name: '阅读状态',
    entries: [
      ['0', '未读', 'warning'],
      ['1', '已读', 'success'],
    ],
  },
  {
    type: 'content_handle_status',
    name: '处理状态',
    entries: [
      ['0', '待处理', 'warning'],
      ['1', '已处理', 'success'],
    ],
  },
  {
    type: 'content_cooperate_status',
    name: '合作审核状态',
    entries: [
      ['0', '待审核', 'warning'],
      ['1', '已通过', 'success'],
      ['2', '未通过', 'danger'],
    ],
  },
  {
    type: 'content_agreement_type',
    name: '协议类型',
    entries: [
      ['1', '用户协议', 'primary'],
      ['2', '会员服务协议', 'success'],
      ['3', '付费咨询协议', 'info'],
    ],
  },
  {
    type: 'content_subject_type',
    name: '科类',
    entries: [
      ['1', '物理类', 'primary'],
      ['2', '历史类', 'success'],
      ['3', '综合', 'info'],
    ],
  },
  {
    type: 'live_status',
    name: '直播状态',
    entries: [
      ['0', '预告', 'info'],
      ['1', '直播中', 'danger'],
      ['2', '已结束', 'default'],
    ],
  },
  {
    type: 'content_ad_slot',
    name: '广告位',
    entries: [
      ['1', 'App 开屏', 'primary'],
      ['2', 'App 首页弹窗', 'success'],
      ['3', 'App 首页横幅', 'warning'],
      ['4', '资讯详情页', 'info'],
    ],
  },
  {
    type: 'content_href_group',
    name: '链接分组',
    entries: [
      ['1', '常用工具', 'primary'],
      ['2', '官方渠道', 'success'],
      ['3', '合作伙伴', 'info'],
    ],
  },
  {
    type: 'site_ad_position',
    name: '官网广告位置',
    entries: [
      ['1', '首页中部横幅', 'primary'],
      ['2', '资讯页顶部', 'success'],
    ],
  },
  {
    type: 'site_network_type',
    name: '网点类型',
    entries: [
      ['1', '直营中心', 'primary'],
      ['2', '加盟网点', 'success'],
      ['3', '合作学校', 'info'],
    ],
  },
  {
    type: 'site_library_category',
    name: '资料分类',
    entries: [
      ['1', '政策文件', 'primary'],
      ['2', '招生计划', 'success'],
      ['3', '填报指南', 'warning'],
      ['4', '历年数据', 'info'],
    ],
  },
];

export const ensureContentDicts = (env: EngineEnv) => ensureModuleDicts(env, CONTENT_DICTS);
