import { Button, type ButtonProps, Popconfirm } from 'antd';
import type { ReactNode } from 'react';

/** Props of a confirmation's OK button, with the test id e2e tests click. */
export function confirmOkProps(danger = false): ButtonProps {
  return { danger, 'data-testid': 'confirm-ok' };
}

/**
 * A row action that asks first: a small link button inside a Popconfirm whose OK button reads
 * like the action. The OK button spins until `onConfirm` settles; a failure leaves the row as
 * it was (the API client has shown why).
 */
export function ConfirmAction({
  label,
  title,
  description,
  cancelText,
  danger = false,
  disabled,
  testId,
  onConfirm,
}: {
  /** The button's text and the confirmation's OK text. */
  label: string;
  title: ReactNode;
  description?: ReactNode;
  cancelText: string;
  danger?: boolean;
  disabled?: boolean;
  testId: string;
  onConfirm: () => Promise<unknown>;
}) {
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={label}
      cancelText={cancelText}
      okButtonProps={confirmOkProps(danger)}
      onConfirm={() => onConfirm().catch(() => undefined)}
      disabled={disabled}
    >
      <Button type="link" size="small" danger={danger} disabled={disabled} data-testid={testId}>
        {label}
      </Button>
    </Popconfirm>
  );
}
