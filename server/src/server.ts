import {
  createConnection,
  type InitializeResult,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ServerStatusNotification } from './protocol';

/**
 * The Terrace language server: LSP wiring only. Requests are mapped to engine calls and engine
 * results to LSP shapes; the analysis itself lives in `engine/`.
 */
const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize((): InitializeResult => {
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
    },
    serverInfo: { name: 'terrace', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  connection.console.info('Terrace language server started');
  void connection.sendNotification(ServerStatusNotification.type, {
    health: 'ready',
    message: 'ready',
    modules: 0,
    cycles: 0,
  });
});

documents.listen(connection);
connection.listen();
