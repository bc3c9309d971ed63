/**
 * One identity per admission line across years (issue 23).
 *
 * Shandong reassigns 专业代号 every year (the same school + code carries the same major only 62–66 % of the time),
 * so a school's lines are joined across years by their major name, normalised: full/half-width, spaces and quotes,
 * the 类 suffix of a name or a note (理科试验班类 = 理科试验班, 师范类 = 师范), the wording of notes (…方向, …项目,
 * …计划, 招收…, the order and separators of several notes, 5+3一体化 written into another note, 五年/八年 = 五年制/八年制,
 * the legal form of a partner company), plus explicit rename maps for the rewordings the data shows. The school code
 * is stable across years (school renames keep the code), so it is part of the identity and the school name is not.
 *
 * What is never merged: a note that changes what the line is — 高校专项计划 / 地方专项 / 国家专项 (who may fill it),
 * 中外合作办学 (fees, degree), 师范 / 公费 / 定向 (obligations; 师范, 师范兼非师范, 含师范 and 非师范 are four different
 * notes), 预科, 民族班, a campus (…走读, …校区) — stays in the identity, because it is a different choice in the official
 * system. No rule or rename below adds or removes such a note. Within one year two lines of a school can still share
 * an identity (数学类 and 数学, or the same name printed twice under two 专业代号); the catalogue keeps them apart.
 *
 * The base 类 suffix is dropped on purpose (物理学类 = 物理学, 金融学类 = 金融学): when a school moves a discipline
 * between 大类招生 and the single major of the same name, the other year's line is the nearest history there is (on
 * the 2021–2026 data the min rank of such a join moves by a median 8.2 % from one year to the next, against 6.6 % for an
 * unchanged name). A 类 is never joined to a differently named major (计算机类 ≠ 计算机科学与技术: a split of the
 * category, not a rename).
 */

/**
 * Whole-name renames (left: the older year's identity, normalised; right: the newer one). Empty: every rename the
 * 2021–2026 data shows is a note reworded (below); a changed base name was always a different major or a split.
 */
export const RENAMES: ReadonlyMap<string, string> = new Map<string, string>([]);

/**
 * Note rewordings the data shows, for every school (keys and values normalised by the generic rules; '' drops the
 * note, a value with commas stands for several notes). 师范兼非师范 → 师范兼非师范类 needs no entry: the 类 rule joins it.
 */
export const NOTE_RENAMES: ReadonlyMap<string, string> = new Map<string, string>([
  // 八年制 = 本博连读: 北京大学医学部 临床医学(本博连读) 2024 → (八年制本博连读) 2025; 南方医科大学 临床医学(本博连读八年制)
  // 2025 → (八年制) 2026.
  ['本博连读', '八年制'],
  ['八年制本博连读', '八年制'],
  ['本博连读八年制', '八年制'],
  // One 定向 note reworded: 山东大学 预防医学 / 土木、水利与海洋工程(非西藏生源定向西藏就业) 2025 → (非西藏生定藏就业) 2026.
  ['非西藏生定藏就业', '非西藏生源定向西藏就业'],
  // 山东科技大学 英语 / 日语(外语语种须为英语) 2024 → (外语语种为英语) 2025.
  ['外语语种须为英语', '外语语种为英语'],
  // Partner companies of 校企合作 lines, renamed or shortened (after the legal form is dropped):
  // 青岛农业大学 英语(与青岛英谷教育合作) 2021 → (与青岛英谷教育科技公司合作) 2022 → (…科技股份有限公司合作) 2023;
  // 青岛理工大学 / 济宁学院 (与青岛英谷教育公司合作) 2022 → (与青岛英谷教育科技股份有限公司合作) 2023.
  ['与青岛英谷教育合作', '与青岛英谷教育科技合作'],
  // 青岛理工大学 软件工程(与青岛青软实训教育公司合作) 2021 → (与青软创新科技集团合作) 2022 → (与青岛青软实训教育科技股份有限
  // 公司合作) 2023; 滨州学院 计算机科学与技术(与青软创新科技集团有限公司合作) 2021 → (与青软实训教育科技有限公司合作) 2022.
  ['与青岛青软实训教育合作', '与青岛青软实训教育科技合作'],
  ['与青软创新科技合作', '与青岛青软实训教育科技合作'],
  ['与青软实训教育科技合作', '与青岛青软实训教育科技合作'],
  // 山东建筑大学 会计学 / 山东女子学院 国际经济与贸易(与济南网融创业服务有限公司合作) 2021 → (与山东全通网融科技有限公司合作) 2022.
  ['与济南网融创业服务合作', '与山东全通网融科技合作'],
  // 山东协和学院 人工智能(与济南博赛网络技术有限公司合作) 2021 → (与济南博赛网络科技有限公司合作) 2022.
  ['与济南博赛网络技术合作', '与济南博赛网络科技合作'],
  // 山东协和学院 会计学(与中科启智合作) 2022 → (与中科启智（山东）信息有限公司合作) 2023.
  ['与中科启智山东信息合作', '与中科启智合作'],
  // 山东建筑大学 市场营销(与中兴协力（山东）教育科技集团有限公司合作) 2021 → (与中兴协力教育山东公司合作) 2022
  // … → (与中兴协力集团合作) 2023.
  ['与中兴协力山东教育科技合作', '与中兴协力合作'],
  ['与中兴协力教育山东合作', '与中兴协力合作'],
  // 济南大学 烹饪与营养教育(与山东凯瑞管理咨询有限公司合作) 2021 → (与山东凯瑞公司合作) 2022 → (与山东凯瑞商业集团有限责任公司合作) 2023.
  ['与山东凯瑞管理咨询合作', '与山东凯瑞合作'],
  ['与山东凯瑞商业合作', '与山东凯瑞合作'],
  // 济南大学 化学工程与工艺(与山东金城医药集团有限公司合作) 2021 → (与山东金城制药集团合作) 2022 → (…医药集团股份有限公司合作) 2023.
  ['与山东金城制药合作', '与山东金城医药合作'],
  // 临沂大学 测绘工程(与山东慧创科技有限公司合作) 2021 → (与山东慧创信息科技有限公司合作) 2022.
  ['与山东慧创科技合作', '与山东慧创信息科技合作'],
  // 山东农业工程学院 电气工程及其自动化(与鼎利卓远山东教育科技公司合作) 2021 → (与鼎利卓远教育科技有限公司合作) 2022.
  ['与鼎利卓远山东教育科技合作', '与鼎利卓远教育科技合作'],
  // 齐鲁工业大学 食品科学与工程(与益客集团合作) 2022 → (与江苏益客食品集团有限公司合作) 2023.
  ['与益客合作', '与江苏益客食品合作'],
  // 山东财经大学 会计学(与信永中和会计事务所合作) 2022 → (与信永中和会计师事务所合作) 2023.
  ['与信永中和会计事务所合作', '与信永中和会计师事务所合作'],
  // 菏泽学院 数据科学与大数据技术(与中科特瑞科技公司合作) 2022 → (与北京中科特瑞科技公司合作) 2023.
  ['与中科特瑞科技合作', '与北京中科特瑞科技合作'],
  // 滨州学院 市场营销(与中软创新国际信息研究院合作) 2022 → (与中软创新（北京）国际信息技术研究院合作) 2023.
  ['与中软创新国际信息研究院合作', '与中软创新北京国际信息技术研究院合作'],
  // 山东体育学院 新闻学(与山东泰冠实业有限公司合作) 2022 → (与山东太冠实业有限公司合作) 2023.
  ['与山东泰冠实业合作', '与山东太冠实业合作'],
]);

/**
 * Note rewordings of one school (school code → note → new note), where the words are the school's own (a class, a
 * college, a truncated note) and could mean something else elsewhere.
 */
export const SCHOOL_NOTE_RENAMES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map<string, ReadonlyMap<string, string>>(
  (
    [
      // 山东科技大学 中外合作办学 lines, 2021 → 2022 → 2023: (就读地点济南只提供英语教学、其他语种慎报) → (就读地点济南，只提供
      // 英语教学、其他语种慎报, often cut off) → (就读地点济南，只提供英语教学). The advice 其他语种慎报 is not part of the line.
      [
        'A424',
        [
          ['就读地点济南只提供英语教学', '就读地点济南,只提供英语教学'],
          ['其他语种慎报', ''],
          ['其他语种慎', ''],
          ['其他语种', ''],
          ['其他语', ''],
          ['其', ''],
        ],
      ],
      // 青岛农业大学 园林 / 园艺 / 植物保护 / 食品科学与工程 …, 2021 → 2022 → 2023: (在全国录取考生中选拔30人组成创新实验班 /
      // …40人…) → (含创新实验班30人) → (含创新实验班); 风景园林(与山东俊文…) 2021 → (与山东骏文…) 2022 (a misprint).
      [
        'A435',
        [
          ['在全国录取考生中选拔30人组成创新实验班', '含创新实验班'],
          ['在全国录取考生中选拔40人组成创新实验班', '含创新实验班'],
          ['含创新实验班30人', '含创新实验班'],
          ['与山东俊文信息科技合作', '与山东骏文信息科技合作'],
        ],
      ],
      // 山西农业大学 农学 / 植物保护 / 动物科学 …(卓越人才实验班) 2023 → (卓越人才培养实验班) 2024.
      ['A113', [['卓越人才实验班', '卓越人才培养实验班']]],
      // 中北大学 测控技术与仪器 / 通信工程 / 弹药工程与爆炸技术 / 材料成型及控制工程 / 特种能源技术与工程(工程精英班) 2025 →
      // (工程拔尖创新人才班) 2026: the same five majors, every one renamed at once, min rank within 21 %.
      ['A110', [['工程精英班', '工程拔尖创新人才班']]],
      // 哈尔滨工程大学: 能源与动力工程 / 海洋信息工程 / 材料科学与工程(兴海领军) 2025 → (兴海领军班) 2026; 软件工程(国家特色
      // 示范学院) 2023 → (国家特色化示范性软件学院) 2024; 水声工程(含水声、水声电子、海洋信息3个专业) 2021 → (含电子水声、水声、…)
      // 2022 → (含水声、水声电子、…) 2023 → (含水声、电子水声、…) 2024.
      [
        'A217',
        [
          ['兴海领军', '兴海领军班'],
          ['国家特色示范学院', '国家特色化示范性软件学院'],
          ['含水声', '水声'],
          ['含电子水声', '电子水声'],
          ['水声电子', '电子水声'],
        ],
      ],
      // 沈阳化工大学 化学工程与工艺 / 过程装备与控制工程(菱镁产业学院) 2025 → (菱美产业学院) 2026 (a misprint).
      ['A149', [['菱美产业学院', '菱镁产业学院']]],
      // 长江大学, one honours label in several wordings: 工商管理类(含荆楚卓越人才协同育人计划) 2023 → (含荆楚卓越协同育人计划)
      // 2024 → (含荆楚卓越育人计划) 2025; 经济学类 (…人才协同…) 2024 → (…协同…) 2025; 土木类(含省荆楚卓越人才协同育人计划) 2021 →
      // (含荆楚卓越人才协同育人计划) 2023; 临床医学(含教育部卓越医生、省荆楚卓越人才育人计划) 2022 → (教育部卓越医生、…) 2023 →
      // (含教育部卓越医生、省荆楚卓越人才计划) 2024.
      [
        'A489',
        [
          ['含荆楚卓越协同育人', '含荆楚卓越人才协同育人'],
          ['含荆楚卓越育人', '含荆楚卓越人才协同育人'],
          ['含省荆楚卓越人才协同育人', '含荆楚卓越人才协同育人'],
          ['教育部卓越医生', '含教育部卓越医生'],
          ['省荆楚卓越人才育人', '省荆楚卓越人才'],
        ],
      ],
      // 中南大学 材料科学与工程 / 土木工程(中外合作办学)(与蒙纳士大学中外合作办学项目) 2022 → (中南大学和蒙纳士大学中外合作办学项目,
      // cut off after 项 in 2023 and 2026, after 办学 in 2025); 计算机类(计算机通信类) 2021 → (计算机与通信类) 2022.
      [
        'A533',
        [
          ['中南大学和蒙纳士大学中外合作办学项', '中南大学和蒙纳士大学中外合作办学'],
          ['与蒙纳士大学中外合作', '中南大学和蒙纳士大学中外合作办学'],
          ['计算机通信', '计算机与通信'],
        ],
      ],
      // 电子科技大学(沙河校区): 电子信息类(中外合作办学)(海南陵水国际教育创新区) 2024 → (海南省陵水…) 2025 → (海南陵水…) 2026;
      // 软件工程(AI交叉复合型创新人才培养实验班) 2025 → (AI交叉创新人才培养实验班) 2026.
      [
        'H614',
        [
          ['海南省陵水国际教育创新区', '海南陵水国际教育创新区'],
          ['AI交叉复合型创新人才培养实验班', 'AI交叉创新人才培养实验班'],
        ],
      ],
      // The partner of a 中外合作办学 line named instead of its country, 2022 → 2023: 山东农业大学 工商管理 / 会计学 / 国际经济与
      // 贸易(中德合作) → (与德国埃森经济管理应用技术大学合作), 土地资源管理 / 食品质量与安全(中英合作) → (与英国皇家农业大学合作);
      // 鲁东大学 电气工程及其自动化 / 机械设计制造及其自动化 / 船舶与海洋工程(中韩合作) → (与韩国蔚山大学合作办学); 山东理工大学
      // 计算机科学与技术 / 机械设计制造及其自动化(中爱合作办学) 2021 → (招收中爱合作办学) 2022 → (与爱尔兰利莫瑞克大学合作) 2023.
      [
        'A434',
        [
          ['中德合作', '与德国埃森经济管理应用技术大学合作'],
          ['中英合作', '与英国皇家农业大学合作'],
        ],
      ],
      ['A451', [['中韩合作', '与韩国蔚山大学合作']]],
      ['A433', [['中爱合作办学', '与爱尔兰利莫瑞克大学合作']]],
      // The 儿科 track of 临床医学(5+3一体化, …): 青岛大学 (儿科学) 2021 → (儿科) 2022; 南京医科大学 (儿科医学) 2023 → (儿科学) 2024;
      // 哈尔滨医科大学 (儿科学) 2021 → (儿科学硕士) 2022; 黑龙江中医药大学 中医学 (儿科学) 2021 → (专业硕士儿科学) 2022.
      ['B065', [['儿科', '儿科学']]],
      ['A312', [['儿科医学', '儿科学']]],
      ['A226', [['儿科学硕士', '儿科学']]],
      ['A228', [['专业硕士儿科学', '儿科学']]],
      // 天津中医药大学 中医学(拔尖创新人才培养模式改革9年制) 2021 → (中医拔尖…9年制) 2022 → (拔尖…9年制) 2023; 南京中医药大学
      // 中医学(中医拔尖创新人才培养模式改革) 2023 → (拔尖创新人才培养模式改革) 2024.
      ['A063', [['拔尖创新人才培养模式改革9年制', '中医拔尖创新人才培养模式改革9年制']]],
      ['A315', [['中医拔尖创新人才培养模式改革', '拔尖创新人才培养模式改革']]],
      // 大连理工大学, 2021 → 2022: 应用化学(国家拔尖学生培养基地张大煜化学班) → (张大煜化学基础科学拔尖计划班), 应用物理学(王大珩
      // 物理基础科学班) → (王大珩物理基础科学拔尖计划班), 电子信息类(电信、自动化与计算机工科实验班) → (…新工科实验班); 数学类
      // (数学类及华罗庚数学基础科学拔尖计划班) 2023 → (数学类及华罗庚拔尖计划班) 2024. 盘锦校区 能源化学工程 (…工科实验班) 2021 →
      // (…新工科实验班) 2022.
      [
        'A141',
        [
          ['国家拔尖学生培养基地张大煜化学班', '张大煜化学基础科学拔尖计划班'],
          ['王大珩物理基础科学班', '王大珩物理基础科学拔尖计划班'],
          ['自动化与计算机工科实验班', '自动化与计算机新工科实验班'],
          ['数学类及华罗庚数学基础科学拔尖计划班', '数学类及华罗庚拔尖计划班'],
        ],
      ],
      ['H141', [['资源与生物化工工科实验班', '资源与生物化工新工科实验班']]],
      // 北京理工大学 工科试验班(智能制造与智能车辆精英班) 2022 → (…菁英班) 2023.
      ['A007', [['智能制造与智能车辆精英班', '智能制造与智能车辆菁英班']]],
      // 青岛科技大学 新能源材料与器件(中国科学院大学青岛生物能源与过程研究所菁英班) 2023 → (国科大青能所菁英班) 2024;
      // 高分子材料与工程(合成方向) 2024 → (高分子合成方向) 2025 (beside its 橡胶工程 and 塑料工程 lines).
      [
        'A426',
        [
          ['中国科学院大学青岛生物能源与过程研究所菁英班', '国科大青能所菁英班'],
          ['合成', '高分子合成'],
        ],
      ],
      // 山西中医药大学 中药学(临床中药学方向) 2022 → (临床中药方向) 2023 → (临床中药学方向) 2024.
      ['A809', [['临床中药学', '临床中药']]],
      // 湖南大学 计算机科学与技术(智能班) 2024 → (智能实验班) 2025.
      ['A532', [['智能班', '智能实验班']]],
      // 湖北工业大学 生物技术(生命科学拔尖人才试验班) 2024 → (生命科学拔尖创新人才实验班) 2025.
      ['A500', [['生命科学拔尖人才试验班', '生命科学拔尖创新人才实验班']]],
      // 东北林业大学 林学类(成栋实验班) / 林业工程类(成栋班) 2024 → (拔尖人才成栋班) 2025.
      [
        'A225',
        [
          ['成栋实验班', '拔尖人才成栋班'],
          ['成栋班', '拔尖人才成栋班'],
        ],
      ],
      // 青海民族大学 小学教育(师范类，按语文教育培养) 2021 → (师范类，按语文培养) 2022.
      ['A748', [['按语文教育培养', '按语文培养']]],
      // 重庆大学 人文科学试验班(法学与新闻类) / 理科试验班(数学与物理类) 2021 → (法学新闻类) / (数学物理类) 2022.
      [
        'A611',
        [
          ['法学与新闻', '法学新闻'],
          ['数学与物理', '数学物理'],
        ],
      ],
      // 武汉工程大学邮电与信息工程学院 土木工程(道路与桥梁方向) 2021 → (道路与桥梁工程方向) 2022.
      ['D239', [['道路与桥梁', '道路与桥梁工程']]],
      // 上海交通大学 理科试验班类(含致远，李政道、吴文俊班，…) 2021 → (含致远，吴文俊、李政道班，…) 2022.
      [
        'A248',
        [
          ['李政道班', '李政道'],
          ['吴文俊班', '吴文俊'],
        ],
      ],
      // 华侨大学 数学与应用数学(金融统计、数据分析方向) 2022 → (金融统计方向和数据分析方向) 2023, 2024 → (金融统计方向、数据分析
      // 方向) 2025; 土木工程(智能结构与城市更新方向) 2025 → (智能结构与城镇更新方向) 2026.
      [
        'A385',
        [
          ['金融统计方向和数据分析', '数据分析,金融统计'],
          ['智能结构与城市更新', '智能结构与城镇更新'],
        ],
      ],
      // 西北工业大学 航空航天类(本研衔接班) 2022 → (智慧三航本研衔接班) 2023; 航空航天类(航宇力学拔尖基地班) 2025 → (航宇力学国家
      // 拔尖计划班) 2026.
      [
        'A699',
        [
          ['本研衔接班', '智慧三航本研衔接班'],
          ['航宇力学拔尖基地班', '航宇力学国家拔尖计划班'],
        ],
      ],
      // 北京工商大学 应用化学: (日化方向) 2021–2023, (日化创新实验班) 2024, (日化方向) 2025, (日化创新实验班) 2026: one line.
      ['A011', [['日化创新实验班', '日化']]],
      // 南京航空航天大学 信息与计算科学(信计加人工智能双学士学位项目) 2024 → (信息与计算科学-人工智能双学士学位) 2025 →
      // (信息与计算科学+人工智能双学士学位培养项目) 2026.
      [
        'A287',
        [
          ['信计加人工智能双学士学位', '信息与计算科学+人工智能双学士学位培养'],
          ['信息与计算科学-人工智能双学士学位', '信息与计算科学+人工智能双学士学位培养'],
        ],
      ],
      // 2025 → 2026, one wording for the same line: 河海大学 工程管理(工程数智创新班) → (数智创新班); 山东大学 材料类(先进材料与
      // 智慧成型方向) → (先进材料与智能成型方向); 武汉工程大学 生物工程(智能生物制造方向) → (生物智能制造方向); 中南民族大学 行政
      // 管理(…，健康保障与社会安全) → (…，健康治理与社会安全); 昆明理工大学 冶金工程(菁英班) → (菁英); 甘肃政法大学 法学(西部基层
      // 卓越法治人才基地班) → (卓越法治人才基地班); 深圳技术大学 人工智能(优必选具身智能英才班) → (优必选智能英才班); 北京邮电
      // 大学 英语(语言智能实验班) → (智能语言实验班); 中央财经大学 投资学(含投资学、投资学大数据双学位项目2个专业) → (…投资学与
      // 大数据…); 上海对外经贸大学 国际经济与贸易(国际经济与贸易-数据科学与大数据技术双学士学位) → (数据科学与大数据技术双学士
      // 学位); 武汉大学 电子信息类(地球与空间科学技术学院) → (地空学院).
      ['A294', [['工程数智创新班', '数智创新班']]],
      ['A422', [['先进材料与智慧成型', '先进材料与智能成型']]],
      ['A490', [['智能生物制造', '生物智能制造']]],
      ['A524', [['健康保障与社会安全', '健康治理与社会安全']]],
      ['A674', [['菁英班', '菁英']]],
      ['B406', [['西部基层卓越法治人才基地班', '卓越法治人才基地班']]],
      ['E655', [['优必选具身智能英才班', '优必选智能英才班']]],
      ['A013', [['语言智能实验班', '智能语言实验班']]],
      ['A034', [['投资学大数据双学位项目2个', '投资学与大数据双学位项目2个']]],
      ['A273', [['国际经济与贸易-数据科学与大数据技术双学士学位', '数据科学与大数据技术双学士学位']]],
      ['A486', [['地球与空间科学技术学院', '地空学院']]],
      // Every honours class of a school renamed at once, 2025 → 2026, on the same majors (min rank within 26 %): 武汉理工大学
      // 微电子科学与工程 / 交通设备与控制工程 / 通信工程(卓越实验班) → (卓越英才班), 车辆工程(智能新能源汽车博学实验班) →
      // (…鲲鹏试点班), 光电信息科学与工程(应用物理博学实验班) → (…鲲鹏试点班); 湖南工商大学 国际经济与贸易 / 工商管理 / 法学 / 英语
      // (…卓越班) → (…创新实验班).
      [
        'A497',
        [
          ['卓越实验班', '卓越英才班'],
          ['智能新能源汽车博学实验班', '智能新能源汽车鲲鹏试点班'],
          ['应用物理博学实验班', '应用物理鲲鹏试点班'],
        ],
      ],
      [
        'A554',
        [
          ['数智贸易卓越班', '数智贸易创新实验班'],
          ['智慧运营院士卓越班', '智慧运营创新实验班'],
          ['数智法治卓越班', '数智法治创新实验班'],
          ['语言数智卓越班', '语言数智创新实验班'],
        ],
      ],
    ] as Array<[string, Array<[string, string]>]>
  ).map(([code, pairs]) => [code, new Map(pairs)]),
);

/** Full-width → half-width, no spaces, one bracket style. */
export function normaliseText(s: string): string {
  return s
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/[【〔［[]/g, '(')
    .replace(/[】〕］\]]/g, ')');
}

/**
 * A name split into its base (before the first bracket) and its bracketed notes. A bracket inside a note is part of
 * its words (与腾讯(山东)企鹅新媒体学院合作 = 与腾讯山东企鹅新媒体学院合作); a note cut off by the printed table's
 * width (no closing bracket) is kept as far as it goes.
 */
export function splitName(name: string): { base: string; notes: string[] } {
  const s = normaliseText(name);
  const open = s.indexOf('(');
  if (open < 0) return { base: s, notes: [] };
  const base = s.slice(0, open);
  const notes: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s.slice(open)) {
    if (ch === '(') {
      depth++;
      continue;
    }
    if (ch === ')') {
      depth = Math.max(0, depth - 1);
      if (depth === 0) {
        if (cur) notes.push(cur);
        cur = '';
      }
      continue;
    }
    if (depth === 0) continue; // text between bracket groups is dropped as noise
    cur += ch;
  }
  if (cur) notes.push(cur);
  return { base, notes };
}

const FIVE_PLUS_THREE = '5+3一体化';
/** Legal-form words of a company: the same partner whether printed with them or not. */
const LEGAL_FORM = /(股份有限公司|有限责任公司|有限公司|股份公司|有限公|有限|公司|集团|控股|股份)$/;

/** A partner company's note (与X合作, 与X合作办学, 与X有限公司, X股份有限公司 …) as 与X合作, X without its legal form. */
function partnerNote(n: string): string {
  const isPartner = /^与.+(合作办学|合作|公司|有限|集团|合)$/.test(n) || /.(有限公司|股份公司)$/.test(n);
  if (!isPartner) return n;
  let core = n.replace(/^与/, '').replace(/(合作办学|合作)$/, '');
  core = core.replace(/(公司|有限|集团)合$/, '$1'); // cut off inside 合作
  while (LEGAL_FORM.test(core) && core.replace(LEGAL_FORM, '').length > 1) core = core.replace(LEGAL_FORM, '');
  return `与${core}合作`;
}

/** One note item after the generic rules (before the rename maps): may become several or none. */
function genericNote(item: string): string[] {
  let n = item.replace(/^[、,;:]+|[、,;:]+$/g, '').replace(/[“”‘’"'「」]/g, '');
  n = n.replace(/(\d)加(\d)/g, '$1+$2').replace(/^招收/, '');
  if (!n) return [];
  // 5+3一体化 written into another note: (5+3一体化儿科学) = (5+3一体化，儿科学) = (儿科学5+3一体化); 5+3一体化培养 = 5+3一体化.
  if (n.includes(FIVE_PLUS_THREE) && n !== FIVE_PLUS_THREE) {
    const rest = n.replace(FIVE_PLUS_THREE, '').replace(/^培养|培养$/g, '');
    return [FIVE_PLUS_THREE, ...(rest ? genericNote(rest) : [])];
  }
  // A partner note run into the next one: (与潍柴控股公司合作共建产业学院) = (与潍柴控股集团有限公司合作，共建产业学院).
  const runOn = /^(与.+?合作)(?!办学)(.+)$/.exec(n);
  if (runOn) return [...genericNote(runOn[1]), ...genericNote(runOn[2])];
  // Until nothing changes, so that a normalised note normalises to itself (the rename maps are written in it).
  for (let prev = ''; prev !== n; ) {
    prev = n;
    n = n.replace(/(方向|项目|专业|计划|选拔)$/, '');
    if (n.length > 1) n = n.replace(/类$/, '');
    n = partnerNote(n);
  }
  // 学制: 五年 = 五年制 = 5年, 八年 = 八年制 = 8年.
  n = n.replace(/^(五|5)年制?$/, '五年制').replace(/^(八|8)年制?$/, '八年制');
  return n ? [n] : [];
}

function renamed(items: string[], map: ReadonlyMap<string, string> | undefined): string[] {
  if (!map) return items;
  return items.flatMap((n) => {
    const to = map.get(n);
    if (to == null) return [n];
    return to ? to.split(',') : [];
  });
}

/** The notes of a name after the generic rules only (what the rename maps' keys are written in). */
export function genericNoteItems(notes: readonly string[]): string[] {
  return notes.flatMap((n) => n.split(/[,;、]/)).flatMap(genericNote);
}

/** The notes of a name as the identity sees them: generic rules, then the renames of every school, then the school's. */
export function noteItems(notes: readonly string[], schoolCode?: string | null): string[] {
  const generic = genericNoteItems(notes);
  const items = renamed(renamed(generic, NOTE_RENAMES), schoolCode ? SCHOOL_NOTE_RENAMES.get(schoolCode) : undefined);
  return [...new Set(items.filter(Boolean))].sort();
}

/**
 * The normalised major name of a line: the part of its identity that is not the school. The school code, when given,
 * applies that school's own renames (lineIdentity always gives it).
 */
export function majorIdentity(majorName: string | null | undefined, schoolCode?: string | null): string {
  if (!majorName) return '';
  const { base, notes } = splitName(majorName);
  const b = base.length > 1 ? base.replace(/类$/, '') : base;
  const items = noteItems(notes, schoolCode);
  const id = items.length ? `${b}(${items.join(',')})` : b;
  return RENAMES.get(id) ?? id;
}

/** The identity of a line across years: school code + normalised major name (group code where the province has one). */
export function lineIdentity(line: { schoolCode: string; groupCode?: string | null; majorName?: string | null }): string {
  return `${line.schoolCode}|${line.groupCode ?? ''}|${majorIdentity(line.majorName, line.schoolCode)}`;
}
