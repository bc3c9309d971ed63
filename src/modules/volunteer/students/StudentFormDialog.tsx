import { ELIGIBILITY_KINDS, type EligibilityKind, type Preferences, type StudentInput } from '@common/volunteer/students';
import { App, Checkbox, Col, Divider, Form, Input, InputNumber, Modal, Radio, Row, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import {
  addStudent,
  type Expert,
  editStudent,
  listExperts,
  type ProvinceRules,
  type Provinces,
  provinceRules,
  provinces,
  type StudentInfo,
} from '@/api/volunteer';
import { useAccess } from '@/components/Access';
import { rulesYears } from '../shared/format';
import { LEVELS, RESELECT_SUBJECTS, rankRules, reselectRules, STUDENT_RULES, SUBJECTS, splitSubjects, TRACK_SUBJECTS, trackRules } from './studentRules';

interface FormValues {
  name: string;
  mobile?: string;
  province: string;
  examYear?: number;
  score: number;
  rank?: number | null;
  subjects: number[];
  /** 3+1+2 provinces: 1 物理 or 4 历史 first, then two 再选 subjects. */
  track?: number;
  reselect?: number[];
  regions: string[];
  levels: string[];
  majors: string[];
  tuitionCap?: number | null;
  remark?: string;
  ownerId?: number;
  specialEligibility?: EligibilityKind[];
}

export interface StudentFormDialogProps {
  open: boolean;
  /** The student to edit; null adds a new one. */
  student: StudentInfo | null;
  onClose: () => void;
  onSaved: (student: StudentInfo) => void;
}

const toValues = (s: StudentInfo | null): Partial<FormValues> =>
  s
    ? {
        name: s.name,
        mobile: s.mobile ?? undefined,
        province: s.province,
        examYear: s.examYear,
        score: s.score ?? undefined,
        rank: s.rank,
        subjects: s.subjects,
        ...splitSubjects(s.subjects),
        regions: s.preferences?.regions ?? [],
        levels: s.preferences?.levels ?? [],
        majors: s.preferences?.majors ?? [],
        tuitionCap: s.preferences?.tuitionCap ?? null,
        remark: s.remark ?? undefined,
        specialEligibility: s.specialEligibility ?? [],
      }
    : { province: '山东', regions: [], levels: [], majors: [], subjects: [] };

/** 新增 / 编辑学生: score, rank, province, subjects and preferences, validated in Chinese before the server sees them. */
export function StudentFormDialog({ open, student, onClose, onSaved }: StudentFormDialogProps) {
  const { message } = App.useApp();
  const { can } = useAccess();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [meta, setMeta] = useState<Provinces | null>(null);
  const [experts, setExperts] = useState<Expert[]>([]);
  const leader = can('volunteer:approval:list');
  // The chosen province's rules: 3+1+2 asks for 首选 + 再选; a province without a 一分一段 table asks for the rank.
  const province = Form.useWatch('province', form);
  const [rules, setRules] = useState<ProvinceRules | null>(null);
  useEffect(() => {
    if (!open || !province) return;
    let live = true;
    setRules(null);
    provinceRules(province)
      .then((r) => live && setRules(r))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, province]);
  // The subject fields follow the province list loaded with the dialog (no flicker while the rules load); the
  // rank requirement waits for the rules (the server refuses a missing rank with the same message meanwhile).
  const split = meta?.examProvinces.find((p) => p.province === province)?.subjectType === 3;
  const rankRequired = rules != null && rules.province === province && rules.cohortSize == null;
  const track = Form.useWatch('track', form);
  // A student left without a year sits the exam after the newest admission year loaded (the catalogue's target year).
  const years = rules && rules.province === province ? rulesYears(rules) : null;
  const tableName = `${province}暂无${split && track === 1 ? '物理类' : split && track === 4 ? '历史类' : ''}一分一段表`;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(toValues(student));
    provinces()
      .then(setMeta)
      .catch(() => undefined);
    if (leader && !student) {
      listExperts()
        .then(setExperts)
        .catch(() => undefined);
    }
  }, [open, student, form, leader]);

  const submit = async (v: FormValues) => {
    const preferences: Preferences = {
      regions: v.regions ?? [],
      levels: v.levels ?? [],
      majors: (v.majors ?? []).map((m) => m.trim()).filter(Boolean),
      tuitionCap: v.tuitionCap ?? null,
    };
    // A changed score with an unchanged rank lets the server derive the rank from the 一分一段 table.
    const scoreChanged = student && student.score !== v.score;
    const rank = v.rank ?? null;
    const input: StudentInput = {
      name: v.name.trim(),
      mobile: v.mobile?.trim() || null,
      province: v.province,
      examYear: v.examYear,
      score: v.score,
      rank: scoreChanged && rank === student?.rank ? null : rank,
      subjects: split && v.track ? [v.track, ...(v.reselect ?? [])] : v.subjects,
      preferences,
      remark: v.remark?.trim() || null,
      specialEligibility: v.specialEligibility ?? [],
      ...(leader && !student && v.ownerId ? { ownerId: v.ownerId } : {}),
    };
    setSaving(true);
    try {
      const r = student ? await editStudent(student.studentId, student.version, input) : await addStudent(input);
      message.success(r.msg || (student ? '修改成功' : '新增成功'));
      onSaved(r.student);
    } catch {
      // The server's reason (e.g. 学生信息已被他人修改，请刷新后再保存) has been shown; the form keeps the input.
    } finally {
      setSaving(false);
    }
  };

  const regionOptions = (meta?.schoolProvinces ?? []).filter((p) => p.province).map((p) => ({ value: p.province as string, label: p.province as string }));
  const examOptions = (meta?.examProvinces ?? [{ province: '山东' }]).map((p) => ({ value: p.province, label: p.province }));

  return (
    <Modal
      open={open}
      title={student ? `编辑学生信息 · ${student.name}` : '新增学生'}
      width={760}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      forceRender
      // forceRender mounts the dialog with the page, before the info drawer: without a higher layer the drawer's 编辑
      // opened it underneath the drawer's mask.
      zIndex={1010}
    >
      <Spin spinning={saving} tip="正在保存...">
        <Form<FormValues> form={form} layout="vertical" onFinish={submit} scrollToFirstError>
          <Row gutter={16}>
            <Col xs={24} sm={8}>
              <Form.Item label="姓名" name="name" rules={STUDENT_RULES.name}>
                <Input placeholder="请输入学生姓名" maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item label="手机号" name="mobile" rules={STUDENT_RULES.mobile}>
                <Input placeholder="选填，11 位手机号" maxLength={11} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item label="考生省份" name="province" rules={STUDENT_RULES.province}>
                <Select options={examOptions} placeholder="请选择省份" />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item label="高考分数" name="score" rules={STUDENT_RULES.score}>
                <InputNumber style={{ width: '100%' }} precision={0} placeholder="0–750" />
              </Form.Item>
            </Col>
            <Col xs={12} sm={6}>
              <Form.Item
                label="位次"
                name="rank"
                rules={rankRules(rankRequired ? tableName : null)}
                tooltip={rankRequired ? `${tableName}，请填写考生的全省位次` : '不填则按一分一段表自动换算'}
              >
                <InputNumber style={{ width: '100%' }} precision={0} placeholder={rankRequired ? '全省位次' : '自动换算'} />
              </Form.Item>
            </Col>
            <Col xs={12} sm={4}>
              <Form.Item
                label="高考年份"
                name="examYear"
                rules={STUDENT_RULES.examYear}
                tooltip={years?.targetYear != null ? `不填则为 ${years.targetYear} 年（按 ${years.year} 年招生目录填报）` : '不填则为最新招生目录之后的一届'}
              >
                <InputNumber style={{ width: '100%' }} precision={0} placeholder={years?.targetYear != null ? `默认 ${years.targetYear}` : '默认最新'} />
              </Form.Item>
            </Col>
            {split ? (
              <>
                <Col xs={24} sm={8}>
                  <Form.Item label="首选科目" name="track" rules={trackRules}>
                    <Radio.Group options={TRACK_SUBJECTS} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={16}>
                  <Form.Item label="再选科目（两门）" name="reselect" rules={reselectRules}>
                    <Checkbox.Group options={RESELECT_SUBJECTS} />
                  </Form.Item>
                </Col>
              </>
            ) : (
              <Col xs={24} sm={8}>
                <Form.Item label="选考科目（三门）" name="subjects" rules={STUDENT_RULES.subjects}>
                  <Select mode="multiple" options={SUBJECTS} placeholder="请选择三门" maxCount={3} />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Divider plain orientation="left" style={{ margin: '4px 0 12px' }}>
            填报意向
          </Divider>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item label="意向地区" name="regions">
                <Select mode="multiple" allowClear options={regionOptions} placeholder="不限" maxTagCount="responsive" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label="院校层次" name="levels">
                <Select mode="multiple" allowClear options={LEVELS.map((l) => ({ value: l, label: l }))} placeholder="不限" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label="意向专业" name="majors" rules={STUDENT_RULES.majors} tooltip="输入后回车，可填多个">
                <Select mode="tags" allowClear placeholder="如：计算机、临床医学" tokenSeparators={[',', '，', '、']} open={false} suffixIcon={null} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label="学费上限（元/年）" name="tuitionCap" rules={STUDENT_RULES.tuitionCap}>
                <InputNumber style={{ width: '100%' }} precision={0} placeholder="不限" />
              </Form.Item>
            </Col>
            {leader && !student ? (
              <Col xs={24} sm={12}>
                <Form.Item label="负责专家" name="ownerId" tooltip="不选则由你负责">
                  <Select allowClear placeholder="选择负责专家" options={experts.map((e) => ({ value: e.userId, label: e.nickName || e.userName }))} />
                </Form.Item>
              </Col>
            ) : null}
            <Col xs={24}>
              <Form.Item
                label="专项资格"
                name="specialEligibility"
                tooltip="专项计划、定向、公费师范、预科、民族班只对填写了相应资格的学生开放（推荐和自动填报都不会给出未填写资格的计划）"
              >
                <Select mode="multiple" allowClear placeholder="无（不填报专项计划等）" options={ELIGIBILITY_KINDS.map((k) => ({ value: k, label: k }))} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item label="备注" name="remark" rules={STUDENT_RULES.remark}>
                <Input.TextArea rows={2} maxLength={200} showCount placeholder="选填" />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Spin>
    </Modal>
  );
}
