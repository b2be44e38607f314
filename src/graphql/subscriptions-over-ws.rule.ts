import { GraphQLError } from 'graphql';
import type { ValidationRule } from 'graphql';

/** Over HTTP a subscription cannot be served: refused as bad input, saying where it is served. */
export const subscriptionsOverWsRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation === 'subscription') {
      context.reportError(
        new GraphQLError(
          'subscriptions are served over graphql-ws (WebSocket, subprotocol graphql-transport-ws) at /graphql and over Server-Sent Events (graphql-sse) at /graphql/stream, not over plain HTTP POST',
          { nodes: [node] },
        ),
      );
    }
  },
});
