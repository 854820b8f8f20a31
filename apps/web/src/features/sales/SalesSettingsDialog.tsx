import {
  HOLD_MINUTES_MAX,
  HOLD_MINUTES_MIN,
  IMPRESSIONS_PER_PLAY_PCT_MAX,
  MAKE_GOOD_REMEDIES,
  type MakeGoodRemedy,
} from '@marquee/protocol';
import { Alert, Form, InputNumber, Radio, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';

interface Values {
  holdMinutes: number | null;
  /** Impressions per play as a person reads it (1.00 = one per play); the API takes hundredths. */
  impressionsPerPlay: number | null;
  defaultRemedy: MakeGoodRemedy;
}

/** Minutes as hours and minutes ('24 h 0 min'), in the current language. */
export function holdText(minutes: number, t: TFunction): string {
  return t('settings.hoursMinutes', { ns: 'sales', hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/**
 * The enterprise's sales settings (sales.settings, saved by managers with sales.settingsSave):
 * how long an unpaid order holds its airtime (5 minutes to 30 days, also shown as hours and
 * minutes), impressions per play where gather has no audience (a decimal with two places; the
 * API stores hundredths), the make-good proposed for an under-delivered screen-day, and whether
 * an e-signature provider is configured (read only: the server's ESIGN_URL sets it).
 */
export function SalesSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['sales', 'validation']);
  const [form] = Form.useForm<Values>();
  const hold = Form.useWatch('holdMinutes', form);
  const settings = useCallQuery('salesSettings', {}, { enabled: open, refetchOnWindowFocus: false });
  const data = settings.data;
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };

  // The saved values fill the form when they arrive (the dialog may open before they do); a
  // later refetch does not overwrite what the person has started to change.
  useEffect(() => {
    if (!open || !data || form.isFieldsTouched()) return;
    form.setFieldsValue({
      holdMinutes: data.holdMinutes,
      impressionsPerPlay: data.impressionsPerPlayPct / 100,
      defaultRemedy: data.defaultRemedy,
    });
  }, [open, data, form]);

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t('settings.title')}
      onClose={onClose}
      width={520}
      readOnly={!data}
      canSubmit={() => Boolean(data)}
      submit={(v) =>
        call('salesSettingsSave', {
          holdMinutes: v.holdMinutes ?? HOLD_MINUTES_MIN,
          impressionsPerPlayPct: Math.round((v.impressionsPerPlay ?? 0) * 100),
          defaultRemedy: v.defaultRemedy,
        })
      }
      success={t('settings.saved')}
      invalidates={['sales']}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="sales-settings-form"
      submitTestId="sales-settings-submit"
    >
      {settings.isError ? (
        <Alert type="error" showIcon title={t('common.loadFailed')} style={{ marginBottom: 12 }} />
      ) : null}
      <Form.Item
        name="holdMinutes"
        label={t('settings.holdMinutes')}
        rules={[chosen]}
        extra={
          <>
            {typeof hold === 'number' ? (
              <div data-testid="sales-settings-hold-text">{t('settings.holdAs', { text: holdText(hold, t) })}</div>
            ) : null}
            <div>{t('settings.holdHint')}</div>
          </>
        }
      >
        <InputNumber
          min={HOLD_MINUTES_MIN}
          max={HOLD_MINUTES_MAX}
          precision={0}
          step={30}
          suffix={t('settings.minutesUnit')}
          style={{ width: 200 }}
          data-testid="sales-settings-hold"
        />
      </Form.Item>
      <Form.Item
        name="impressionsPerPlay"
        label={t('settings.impressionsPerPlay')}
        rules={[chosen]}
        extra={t('settings.impressionsPerPlayHint')}
      >
        <InputNumber
          min={0.01}
          max={IMPRESSIONS_PER_PLAY_PCT_MAX / 100}
          precision={2}
          step={0.1}
          style={{ width: 200 }}
          data-testid="sales-settings-impressions"
        />
      </Form.Item>
      <Form.Item
        name="defaultRemedy"
        label={t('settings.defaultRemedy')}
        rules={[chosen]}
        extra={t('settings.defaultRemedyHint')}
      >
        <Radio.Group
          options={MAKE_GOOD_REMEDIES.map((r) => ({ value: r, label: t(`settlement.remedy.${r}`) }))}
          data-testid="sales-settings-remedy"
        />
      </Form.Item>
      {data ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="sales-settings-esign">
          {data.esignConfigured ? t('settings.esignOn') : t('settings.esignOff')}
        </Typography.Paragraph>
      ) : null}
    </FormDialog>
  );
}
