import { customizeValidator, type Localizer } from '@rjsf/validator-ajv8';
import localizeZh from 'ajv-i18n/localize/zh';

/**
 * The form validator: AJV 8 with Chinese messages (ajv-i18n zh). `required` reads as RuoYi's rules do
 * (参数名称不能为空), naming the field by its title; every other keyword keeps ajv-i18n's wording
 * (不应多于 100 个字符, 不应少于 1 个字符, …).
 */
export const localizer: Localizer = (errors) => {
  localizeZh(errors as Parameters<typeof localizeZh>[0]);
  for (const e of errors ?? []) {
    if (e.keyword !== 'required') continue;
    // RJSF hands the localizer quoted names ('configName') so it can swap in titles afterwards.
    const missing = ((e.params as { missingProperty?: string }).missingProperty ?? '').replace(/^'(.*)'$/, '$1');
    const parent = e.parentSchema as { properties?: Record<string, { title?: string }> } | undefined;
    e.message = `${parent?.properties?.[missing]?.title ?? missing}不能为空`;
  }
};

export const validator = customizeValidator({}, localizer);
