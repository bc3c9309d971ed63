import { VERSION_FIELD } from '@common/engine/types';
import { type BaseKey, type BaseRecord, useCreate, useOne, useUpdate } from '@refinedev/core';
import RjsfForm from '@rjsf/antd';
import type CoreForm from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { Alert, App, Button, Card, Modal, Spin } from 'antd';
import { type ComponentType, type Ref, type RefObject, useMemo, useRef, useState } from 'react';
import { buildForm, type FormMode } from '../form/formSchema';
import { validator } from '../form/validator';
import { GridObjectTemplate, widgets } from '../form/widgets';
import type { EngineRecordPageProps, ResourceDef } from '../resource';

/**
 * Create / edit of one record, rendered by RJSF (@rjsf/antd) from the entity schema (form/formSchema.ts) with the
 * Chinese validator. Saving goes through Refine (useCreate / useUpdate → the engine data provider); an update carries
 * the record's `version`. A refused save (a server validation error, a stale version: 数据已被他人修改，请刷新后重试)
 * has already been toasted by the http layer (§8) and is also shown in the form, which stays open.
 */

type FormRef = CoreForm;
// The themed form forwards its ref to the core Form; its declared type does not say so.
const ThemedForm = RjsfForm as unknown as ComponentType<React.ComponentProps<typeof RjsfForm> & { ref?: Ref<FormRef> }>;

const FORM_CONTEXT = { labelCol: { flex: '100px' }, wrapperCol: { flex: 'auto' }, colon: false };

/**
 * An emptied field must reach the server as emptied (it leaves absent properties as they are): null for a nullable
 * property, '' for an optional text one.
 */
function clearedFields(def: ResourceDef, fields: string[], formData: Record<string, unknown>): Record<string, unknown> {
  const out = { ...formData };
  for (const name of fields) {
    const prop = def.schema.properties[name];
    if (!prop || prop.readOnly || out[name] !== undefined) continue;
    const types = Array.isArray(prop.type) ? prop.type : [prop.type];
    if (types.includes('null')) out[name] = null;
    else if (types.includes('string') && !prop.minLength && !def.schema.required?.includes(name)) out[name] = '';
  }
  return out;
}

export interface EntityFormProps extends EngineRecordPageProps {
  /** dialog: the Modal's 确定 submits (no button inside the form); page: the form has its own 提 交 / 返 回. */
  layout: 'dialog' | 'page';
  formRef?: RefObject<FormRef | null>;
  onSubmitting?: (busy: boolean) => void;
  /** Values a new record starts with. */
  defaults?: Record<string, unknown>;
}

export function EntityForm({ resource: def, id, onClose, layout, formRef, onSubmitting, defaults }: EntityFormProps) {
  const { message } = App.useApp();
  const mode: FormMode = id === undefined ? 'create' : 'edit';
  const [busy, setBusy] = useState(false);
  const { result: record, query } = useOne<BaseRecord>({
    resource: def.name,
    id: id ?? '',
    queryOptions: { enabled: id !== undefined, gcTime: 0, staleTime: 0 },
  });
  // The version the user started editing from: a refetch after a refused save must not quietly take the newer one.
  const loadedVersion = useRef<unknown>(undefined);
  if (record && loadedVersion.current === undefined) loadedVersion.current = record[VERSION_FIELD] ?? null;
  // Shown disabled when editing: the readOnly values the record has (an audit column never filled stays out). A
  // single-record screen (x-singleton: 关于我们, 网站设置) shows none: its 编号 and 创建者 / 创建时间 say nothing to
  // the person editing the one page there is.
  const built = useMemo(() => {
    const singleton = Boolean(def.schema['x-singleton']);
    const unset = new Set(
      Object.entries(def.schema.properties)
        .filter(([name, p]) => p.readOnly && (singleton || record?.[name] === undefined || record?.[name] === null || record?.[name] === ''))
        .map(([name]) => name),
    );
    return buildForm(def.schema, mode, layout === 'page' ? '提 交' : '确 定', def.override.fields, unset);
  }, [def, mode, layout, record]);
  // The submit button is styled through ui:submitButtonOptions; in a dialog the Modal's 确 定 submits instead.
  const uiSchema = useMemo(
    () => ({
      ...built.uiSchema,
      'ui:submitButtonOptions':
        layout === 'dialog'
          ? { norender: true }
          : { submitText: '提 交', norender: false, props: { type: 'primary', loading: busy, disabled: busy, style: { marginLeft: 100 } } },
    }),
    [built, layout, busy],
  );
  const [draft, setDraft] = useState<Record<string, unknown> | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();

  const setSubmitting = (b: boolean) => {
    setBusy(b);
    onSubmitting?.(b);
  };

  const submit = async ({ formData }: IChangeEvent<Record<string, unknown>>) => {
    setError(null);
    setSubmitting(true);
    try {
      if (mode === 'create') {
        await create({ resource: def.name, values: formData ?? {}, successNotification: false, errorNotification: false });
        message.success('新增成功');
      } else {
        const values = { ...clearedFields(def, built.fields, formData ?? {}), [VERSION_FIELD]: loadedVersion.current ?? undefined };
        await update({ resource: def.name, id: id as BaseKey, values, successNotification: false, errorNotification: false, mutationMode: 'pessimistic' });
        message.success('修改成功');
      }
      onClose(true);
    } catch (e) {
      setError((e as Error).message || '保存失败');
    } finally {
      setSubmitting(false);
    }
  };

  if (mode === 'edit' && query.isLoading) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (mode === 'edit' && query.isError) return <Alert type="error" showIcon message={query.error?.message || '加载失败'} />;

  const formData = draft ?? (mode === 'edit' ? (record as Record<string, unknown> | undefined) : defaults);
  return (
    <div className="engine-form">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} closable onClose={() => setError(null)} />}
      <ThemedForm
        ref={formRef}
        schema={built.schema}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        widgets={widgets}
        templates={{ ObjectFieldTemplate: GridObjectTemplate }}
        formContext={FORM_CONTEXT}
        showErrorList={false}
        noHtml5Validate
        disabled={busy}
        onChange={(e) => setDraft(e.formData)}
        onSubmit={submit}
      />
    </div>
  );
}

/** 新增X / 修改X in a Modal (x-form.width, default 1200): 确 定 submits, 取 消 closes; a refused save keeps it open. */
export function EntityFormDialog({
  resource: def,
  id,
  open,
  onClose,
  defaults,
}: EngineRecordPageProps & { open: boolean; defaults?: Record<string, unknown> }) {
  const formRef = useRef<FormRef | null>(null);
  const [busy, setBusy] = useState(false);
  const title = `${id === undefined ? '新增' : '修改'}${def.itemTitle}`;
  return (
    <Modal
      title={title}
      open={open}
      width={def.schema['x-form']?.width ?? 1200}
      maskClosable={false}
      destroyOnHidden
      okText="确 定"
      cancelText="取 消"
      confirmLoading={busy}
      onOk={() => formRef.current?.submit()}
      onCancel={() => onClose(false)}
    >
      {open && <EntityForm resource={def} id={id} onClose={onClose} layout="dialog" formRef={formRef} onSubmitting={setBusy} defaults={defaults} />}
    </Modal>
  );
}

/** Page mode (x-form.mode "page"): the form in a card in place of the list. */
export function EntityFormPage({ resource: def, id, onClose, defaults }: EngineRecordPageProps & { defaults?: Record<string, unknown> }) {
  return (
    <Card title={`${id === undefined ? '新增' : '修改'}${def.itemTitle}`} extra={<Button onClick={() => onClose(false)}>返 回</Button>}>
      <EntityForm resource={def} id={id} onClose={onClose} layout="page" defaults={defaults} />
    </Card>
  );
}

export type { ResourceDef };
