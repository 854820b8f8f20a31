import { Button, Empty } from 'antd';

/**
 * The empty state of a list table: the page's "nothing here" text or, when loading failed,
 * the failure text with a retry button. Pages pass their own translated texts.
 */
export function ListEmpty(props: {
  description: string;
  failed?: { description: string; retryLabel: string; onRetry: () => void } | false;
}) {
  const { failed } = props;
  if (failed) {
    return (
      <Empty description={failed.description}>
        <Button onClick={failed.onRetry}>{failed.retryLabel}</Button>
      </Empty>
    );
  }
  return <Empty description={props.description} />;
}
