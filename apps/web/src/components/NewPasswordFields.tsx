import { strongPasswordSchema } from '@marquee/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { requiredRule, zodRule } from './zodRule';

/**
 * A new password and its confirmation inside a form (fields `password` and `confirmPassword`),
 * validated with the server's strength rule. One message at a time: the rule as help while
 * the field is empty (or behind the label's question mark), then only the message of the part
 * of the rule the typed password misses (length, or the mix of characters). Test ids:
 * `<prefix>-password` and `<prefix>-confirm`.
 */
export function NewPasswordFields({
  testIdPrefix,
  labels,
  hintPlacement = 'extra',
}: {
  testIdPrefix: string;
  labels: { password: string; confirm: string };
  /** The strength rule below the empty field (`extra`) or behind the label's question mark (`tooltip`). */
  hintPlacement?: 'extra' | 'tooltip';
}) {
  const { t } = useTranslation('validation');
  const password: string | undefined = Form.useWatch('password', Form.useFormInstance());
  const required = requiredRule(t);
  const hint = t('passwordStrength', { ns: 'validation' });
  return (
    <>
      <Form.Item
        name="password"
        label={labels.password}
        rules={[required, zodRule(strongPasswordSchema, t)]}
        extra={hintPlacement === 'extra' && !password ? hint : undefined}
        tooltip={hintPlacement === 'tooltip' ? hint : undefined}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-password`} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={labels.confirm}
        dependencies={['password']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: async (_r, value) => {
              if (value && value !== getFieldValue('password')) throw new Error(t('passwordConfirm'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-confirm`} />
      </Form.Item>
    </>
  );
}
