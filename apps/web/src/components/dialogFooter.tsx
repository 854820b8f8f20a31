import { Button } from 'antd';
import type { ReactNode } from 'react';

interface FooterButton {
  /** The button's key among the footer's buttons. */
  key: string;
  label: ReactNode;
  onClick: () => void;
  testId: string;
}

/**
 * The footer of a modal that is not a form (an upload, an import): a button that closes it and
 * the primary action, which stays disabled until it can run and spins while it runs.
 */
export function dialogFooter(
  close: FooterButton,
  action: FooterButton & { icon?: ReactNode; disabled?: boolean; loading?: boolean },
): ReactNode[] {
  return [
    <Button key={close.key} onClick={close.onClick} data-testid={close.testId}>
      {close.label}
    </Button>,
    <Button
      key={action.key}
      type="primary"
      icon={action.icon}
      disabled={action.disabled}
      loading={action.loading}
      onClick={action.onClick}
      data-testid={action.testId}
    >
      {action.label}
    </Button>,
  ];
}
