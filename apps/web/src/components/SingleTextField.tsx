import { singleFieldSchema } from '@marquee/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { requiredRule, zodRule } from './zodRule';

/**
 * The one free-text field of a small form (a name typed in a dialog). Spec section 5: such
 * an entry is within 12 characters (`singleFieldSchema`) unless the thing named has a rule of
 * its own (a department name: 20). The input stops at the rule's length and counts.
 */
export function SingleTextField({
  label,
  name = 'name',
  schema = singleFieldSchema,
  testId,
}: {
  label: string;
  name?: string;
  schema?: z.ZodString;
  testId: string;
}) {
  const { t } = useTranslation('validation');
  return (
    <Form.Item name={name} label={label} rules={[requiredRule(t), zodRule(schema, t)]}>
      <Input maxLength={schema.maxLength ?? undefined} showCount autoFocus data-testid={testId} />
    </Form.Item>
  );
}
