import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportClientError } from '@/lib/clientLog';
import { currentWording } from '@/lib/wording';

interface Props {
  children: ReactNode;
  fallback?: ReactNode;
}

/** ErrorBoundary keeps a failing widget from blanking the page. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('widget failed', error.message, info.componentStack?.split('\n')[1]);
    // The server hears only that a part of this route failed: no message, no stack.
    reportClientError('ui.widget_failed');
  }

  render(): ReactNode {
    if (this.state.failed) {
      return (
        this.props.fallback ?? (
          <div className="notice notice--error" role="alert">
            <p>Something went wrong showing this part of the page. Please ask {currentWording().staff} for help.</p>
          </div>
        )
      );
    }
    return this.props.children;
  }
}
