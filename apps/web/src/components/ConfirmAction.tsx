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

/**
 * The pause/enable row action of an account or a company: pausing asks first (danger, with
 * what it ends); enabling asks too. `testId` gets 'pause' or 'enable'.
 */
export function StatusAction({
  status,
  texts,
  disabled,
  testId,
  onSet,
}: {
  status: 'enabled' | 'paused';
  texts: {
    pause: string;
    enable: string;
    pauseTitle: ReactNode;
    pauseHint?: ReactNode;
    enableTitle: ReactNode;
    cancel: string;
  };
  disabled?: boolean;
  testId: (action: 'pause' | 'enable') => string;
  onSet: (status: 'enabled' | 'paused') => Promise<unknown>;
}) {
  return status === 'enabled' ? (
    <ConfirmAction
      label={texts.pause}
      title={texts.pauseTitle}
      description={texts.pauseHint}
      cancelText={texts.cancel}
      danger
      disabled={disabled}
      testId={testId('pause')}
      onConfirm={() => onSet('paused')}
    />
  ) : (
    <ConfirmAction
      label={texts.enable}
      title={texts.enableTitle}
      cancelText={texts.cancel}
      testId={testId('enable')}
      onConfirm={() => onSet('enabled')}
    />
  );
}
