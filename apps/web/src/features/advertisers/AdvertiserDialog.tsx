import {
  type Advertiser,
  advertiserEmailSchema,
  advertiserNameSchema,
  advertiserPhoneSchema,
  endpointDomain,
} from '@marquee/protocol';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { DictionarySelect } from '../../components/pickers/DictionarySelect';
import { useDictionary } from '../../components/pickers/useDictionary';
import { LoginNameField, PersonFields, personFields } from '../accounts/AccountFields';

interface Values {
  loginName: string;
  realName: string;
  phone?: string;
  email?: string;
  /** A code of the dictionary `industry`; null or absent: none. */
  industry?: string | null;
  password: string;
  confirmPassword: string;
}

/**
 * Adds an advertiser (login account, strong password with confirmation) or edits one (name,
 * phone, email, industry). Validated with the server's zod rules; disabled while submitting.
 * The industry is picked from the dictionary `industry` (issue 31): the enabled entries, and
 * the advertiser's own if disabled since.
 */
export function AdvertiserDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  /** The advertiser to edit; null adds a new one. */
  editing: Advertiser | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['advertisers', 'validation']);
  const isEdit = editing !== null;
  const industries = useDictionary('industry');

  const submit = async (v: Values) => {
    const fields = personFields(v);
    // Editing sends the industry as it stands (null clears it); adding sends it only when picked.
    if (editing) await call('advertiserUpdate', { id: editing.id, ...fields, industry: v.industry ?? null });
    else
      await call('advertiserAdd', {
        ...fields,
        ...(v.industry ? { industry: v.industry } : {}),
        loginName: v.loginName.trim(),
        password: v.password,
      });
  };

  return (
    <FormDialog<Values>
      open={open}
      title={t(isEdit ? 'dialog.editTitle' : 'dialog.addTitle')}
      onClose={onClose}
      submit={submit}
      success={t(isEdit ? 'dialog.updated' : 'dialog.added')}
      invalidates={[endpointDomain('advertiserAdd')]}
      values={
        editing
          ? {
              realName: editing.realName,
              phone: editing.phone ?? '',
              email: editing.email ?? '',
              industry: editing.industry,
            }
          : undefined
      }
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="adv-dialog-submit"
      testId="adv-dialog"
    >
      {!isEdit ? <LoginNameField testId="adv-dialog-login" /> : null}
      <PersonFields
        t={t}
        schemas={{ realName: advertiserNameSchema, phone: advertiserPhoneSchema, email: advertiserEmailSchema }}
        testIdPrefix="adv-dialog"
      />
      <Form.Item name="industry" label={t('field.industry')}>
        <DictionarySelect dictionary={industries} current={editing?.industry} testId="adv-dialog-industry" />
      </Form.Item>
      {!isEdit ? (
        <NewPasswordFields
          testIdPrefix="adv-dialog"
          labels={{ password: t('field.password'), confirm: t('field.confirmPassword') }}
          hintPlacement="tooltip"
        />
      ) : null}
    </FormDialog>
  );
}
