import {
  type Advertiser,
  advertiserEmailSchema,
  advertiserNameSchema,
  advertiserPhoneSchema,
  endpointDomain,
} from '@marquee/protocol';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { LoginNameField, PersonFields, personFields } from '../accounts/AccountFields';

interface Values {
  loginName: string;
  realName: string;
  phone?: string;
  email?: string;
  password: string;
  confirmPassword: string;
}

/**
 * Adds an advertiser (login account, strong password with confirmation) or edits one (name,
 * phone, email). Validated with the server's zod rules; disabled while submitting.
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

  const submit = async (v: Values) => {
    const fields = personFields(v);
    if (editing) await call('advertiserUpdate', { id: editing.id, ...fields });
    else await call('advertiserAdd', { ...fields, loginName: v.loginName.trim(), password: v.password });
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
        editing ? { realName: editing.realName, phone: editing.phone ?? '', email: editing.email ?? '' } : undefined
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
