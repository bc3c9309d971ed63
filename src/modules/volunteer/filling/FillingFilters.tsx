import { QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Checkbox, Col, Form, Input, Row, Select, Switch, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { type FilterChoices, cities as loadCities } from '@/api/volunteer';
import { DEFAULT_FILTERS, type FillingFilterValues } from './filterQuery';

export interface FillingFiltersProps {
  choices: FilterChoices | null;
  /** The student's subjects, e.g. 物理/化学/生物. */
  subjectNames: string;
  /** Whether the data carry subject requirements (else 选科匹配 cannot filter and says why). */
  subjectDataAvailable: boolean;
  onChange: (values: FillingFilterValues) => void;
}

const TAGS = ['985', '211', '双一流'];

/**
 * Filters of the filling page: region, city, level, tags, public/private, 计划类型 (special plans; those needing
 * eligibility are offered by the server only to a student who declared it), school and major name, preferences,
 * low-chance options, sort. Changes apply 400 ms after the last edit; the tier is chosen with the tabs of the table.
 */
export function FillingFilters({ choices, subjectNames, subjectDataAvailable, onChange }: FillingFiltersProps) {
  const [form] = Form.useForm<FillingFilterValues>();
  const [cityOptions, setCityOptions] = useState<string[]>([]);
  const regions = Form.useWatch('regions', form) ?? [];
  const single = regions.length === 1 ? regions[0] : null;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    setCityOptions([]);
    if (!single) {
      if (form.getFieldValue('city')) form.setFieldValue('city', undefined);
      return;
    }
    let live = true;
    loadCities(single)
      .then((list) => live && setCityOptions(list))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [single, form]);

  const emit = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChange({ ...DEFAULT_FILTERS, ...form.getFieldsValue(true) }), 400);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  const reset = () => {
    form.resetFields();
    clearTimeout(timer.current);
    onChange({ ...DEFAULT_FILTERS });
  };

  const levelOptions = (choices?.levels.length ? choices.levels.map((l) => l.value) : ['本科', '专科']).map((v) => ({ value: v, label: v }));
  const prefix = (text: string) => <span style={{ color: 'rgba(0,0,0,.45)', marginInlineEnd: 4 }}>{text}</span>;
  return (
    <Form<FillingFilterValues>
      form={form}
      initialValues={DEFAULT_FILTERS}
      onValuesChange={emit}
      size="small"
      className="zy-filling-filters"
      aria-label="筛选条件"
    >
      <Row gutter={[8, 8]}>
        <Col xs={24} md={10}>
          <Form.Item name="regions" noStyle>
            <Select
              mode="multiple"
              allowClear
              prefix={prefix('地区')}
              maxTagCount="responsive"
              placeholder="全部地区"
              aria-label="院校地区"
              style={{ width: '100%' }}
              options={(choices?.regions ?? []).filter((r) => r.value).map((r) => ({ value: r.value as string, label: `${r.label}（${r.count}）` }))}
              optionFilterProp="label"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={7}>
          <Form.Item name="city" noStyle>
            <Select
              allowClear
              prefix={prefix('城市')}
              placeholder={single ? '全部' : '先选一个地区'}
              disabled={!single}
              aria-label="城市"
              style={{ width: '100%' }}
              options={cityOptions.map((c) => ({ value: c, label: c }))}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={7}>
          <Form.Item name="sort" noStyle>
            <Select
              prefix={prefix('排序')}
              aria-label="排序"
              style={{ width: '100%' }}
              options={[
                { value: 'rank', label: '难→易' },
                { value: 'probability', label: '录取概率' },
                { value: 'score', label: '最低分' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="level" noStyle>
            <Select allowClear prefix={prefix('层次')} placeholder="不限" aria-label="层次" style={{ width: '100%' }} options={levelOptions} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="isPublic" noStyle>
            <Select
              allowClear
              prefix={prefix('性质')}
              placeholder="不限"
              aria-label="办学性质"
              style={{ width: '100%' }}
              options={[
                { value: 1, label: '公办' },
                { value: 0, label: '民办' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="planType" noStyle>
            <Select
              mode="multiple"
              allowClear
              prefix={prefix('计划类型')}
              maxTagCount="responsive"
              placeholder="全部"
              aria-label="计划类型"
              style={{ width: '100%' }}
              options={(choices?.planTypes ?? []).map((p) => ({
                value: p.value,
                label: `${p.label}（${p.count}）${p.needsEligibility ? ' · 需专项资格' : ''}`,
              }))}
              optionFilterProp="label"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="schoolName" noStyle>
            <Input allowClear prefix={prefix('院校')} placeholder="名称" maxLength={40} aria-label="院校名称" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="majorName" noStyle>
            <Input allowClear prefix={prefix('专业')} placeholder="名称" maxLength={40} aria-label="专业名称" />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px', alignItems: 'center' }}>
            <span>
              <span style={{ color: 'rgba(0,0,0,.45)', marginInlineEnd: 6 }}>标签</span>
              <Form.Item name="tags" noStyle>
                <Checkbox.Group options={TAGS} aria-label="院校标签" />
              </Form.Item>
            </span>
            <Tooltip
              title={
                subjectDataAvailable ? `只显示 ${subjectNames} 可报的专业` : `当前招生数据未包含选科要求，无法按选科（${subjectNames}）过滤，请以招生章程为准`
              }
            >
              <span>
                <Switch size="small" checked={subjectDataAvailable} disabled aria-label="选科匹配" /> 选科匹配{' '}
                <QuestionCircleOutlined style={{ color: '#999' }} />
              </span>
            </Tooltip>
            <Form.Item name="usePreferences" valuePropName="checked" noStyle>
              <Checkbox>按学生意向</Checkbox>
            </Form.Item>
            <Form.Item name="includeUnreachable" valuePropName="checked" noStyle>
              <Checkbox>含概率低于 5% 的</Checkbox>
            </Form.Item>
            <Button size="small" type="link" onClick={reset} style={{ padding: 0 }}>
              重置筛选
            </Button>
          </div>
        </Col>
      </Row>
    </Form>
  );
}
