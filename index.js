// n8n finds the nodes and credentials through the "n8n" section of package.json; this entry point
// only lets `require('n8n-nodes-intelliprint')` resolve.
module.exports = {};
