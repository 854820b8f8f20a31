import type { EndpointDomain } from '@marquee/protocol';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, type FormInstance, Modal, type ModalProps } from 'antd';
import { type ReactNode, useEffect, useEffectEvent } from 'react';
import { domainKey } from '../api/queries';
import { useFormName } from './formName';

/** The props of a dialog that adds a record or edits `editing` (null: a new one). */
export interface EditDialogProps<T> {
  open: boolean;
  editing: T | null;
  onClose: () => void;
}

export interface FormDialogProps<V extends object> {
  open: boolean;
  title: ReactNode;
  /** Cancel, the close icon, and (unless `onDone` is given) a successful submit. */
  onClose: () => void;
  /**
   * Sends the validated values. The dialog is busy (form and cancel disabled) until it settles;
   * a rejection keeps the dialog open with the values (the API client has shown the error).
   */
  submit: (values: V) => Promise<unknown>;
  /** The toast after a successful submit (a function: from what `submit` answered, e.g. a new record's number). */
  success: string | ((answer: unknown) => string);
  /** The queries to refresh after a successful submit. */
  invalidate?: QueryKey;
  /** The catalogue domains whose reads the submit changes (refreshed after a successful submit, with `invalidate`). */
  invalidates?: readonly EndpointDomain[];
  /** After a successful submit, instead of `onClose`. */
  onDone?: () => void;
  /** Checks what the form rules cannot; false stops the submit (the dialog shows why itself). */
  canSubmit?: (values: V) => boolean;
  /** Each time the dialog opens the fields are reset to `initialValues`, then given these. */
  values?: Partial<V>;
  initialValues?: Partial<V>;
  okText: string;
  cancelText: string;
  /** The submit button's `data-testid`. */
  submitTestId?: string;
  /** The form's `data-testid`. */
  testId?: string;
  /** The form's class (`mq-form-grid` for two columns). */
  className?: string;
  width?: number;
  /** The form is read only (the fields disabled); usually with a `footer` of its own. */
  readOnly?: boolean;
  footer?: ModalProps['footer'];
  /** The form instance, when the dialog's own code reads it (`Form.useWatch`). */
  form?: FormInstance<V>;
  children: ReactNode;
}

/**
 * A dialog with one form (guide convention 8): vertical layout, validated by the fields'
 * rules, disabled while submitting, a success toast, the list queries invalidated, then
 * closed. It does not close on a click outside, and its content is destroyed when hidden.
 */
export function FormDialog<V extends object>({
  open,
  title,
  onClose,
  submit,
  success,
  invalidate,
  invalidates,
  onDone,
  canSubmit,
  values,
  initialValues,
  okText,
  cancelText,
  submitTestId,
  testId,
  className,
  width,
  readOnly = false,
  footer,
  form: given,
  children,
}: FormDialogProps<V>) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<V>(given);
  const formName = useFormName('dialog');
  const save = useMutation({
    mutationFn: submit,
    onSuccess: (answer) => {
      void message.success(typeof success === 'function' ? success(answer) : success);
      if (invalidate) void queryClient.invalidateQueries({ queryKey: invalidate });
      for (const domain of invalidates ?? []) void queryClient.invalidateQueries({ queryKey: domainKey(domain) });
      (onDone ?? onClose)();
    },
  });

  // Opening starts from the initial values plus the record being edited, never from the last opening.
  const fill = useEffectEvent(() => {
    form.resetFields();
    if (values) form.setFieldsValue(values);
  });
  useEffect(() => {
    if (open) fill();
  }, [open]);

  const busy = save.isPending;
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={okText}
      cancelText={cancelText}
      confirmLoading={busy}
      okButtonProps={submitTestId ? { 'data-testid': submitTestId } : undefined}
      cancelButtonProps={{ disabled: busy }}
      maskClosable={false}
      destroyOnHidden
      width={width}
      footer={footer}
    >
      <Form<V>
        form={form}
        name={formName}
        layout="vertical"
        onFinish={(v) => {
          if (!canSubmit || canSubmit(v)) save.mutate(v);
        }}
        disabled={busy || readOnly}
        initialValues={initialValues}
        data-testid={testId}
        className={className}
      >
        {children}
      </Form>
    </Modal>
  );
}
