import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MonitorOnly, NotForMonitor } from '../src/components/MonitorGuard';
import { useSession } from '../src/session/session';

afterEach(() => {
  cleanup();
  useSession.setState({ thirdMonitorUser: false });
});

function Page() {
  return (
    <div>
      <NotForMonitor>
        <button type="button">export</button>
      </NotForMonitor>
      <MonitorOnly>
        <span>monitor view</span>
      </MonitorOnly>
      <span>always</span>
    </div>
  );
}

describe('third-party monitor rule (spec section 6)', () => {
  it('shows elements marked for non-monitor users to everyone else', () => {
    useSession.setState({ thirdMonitorUser: false });
    render(<Page />);
    expect(screen.queryByRole('button', { name: 'export' })).not.toBeNull();
    expect(screen.queryByText('monitor view')).toBeNull();
    expect(screen.queryByText('always')).not.toBeNull();
  });

  it('hides them from a third-party monitor and shows the monitor-only ones', () => {
    useSession.setState({ thirdMonitorUser: true });
    render(<Page />);
    expect(screen.queryByRole('button', { name: 'export' })).toBeNull();
    expect(screen.queryByText('monitor view')).not.toBeNull();
    expect(screen.queryByText('always')).not.toBeNull();
  });

  it('follows the session when the flag changes', () => {
    render(<Page />);
    expect(screen.queryByRole('button', { name: 'export' })).not.toBeNull();
    act(() => useSession.setState({ thirdMonitorUser: true }));
    expect(screen.queryByRole('button', { name: 'export' })).toBeNull();
  });
});
