"""Every ``ERR_`` code the app can emit, each with its one-line meaning.

This is the one table of error codes. tests/core/test_error_codes.py holds it to the code
and to the served spec (resources/interface-spec.txt) in both directions: every code
raised anywhere in the package is listed here, every code listed here is named in the
spec, and every code the spec names is listed here and raised somewhere.

A new code goes at the end of its area's section, so that areas working at once do not
touch the same lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

ERROR_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # scanner and validator
        "ERR_MARKER_NOT_ALONE": "a block marker shares its line with other text",
        "ERR_MISSING_END_MARKER": "an OPERATOR_CMD block has no END_OPERATOR_CMD line",
        "ERR_MISSING_START_MARKER": "an END_OPERATOR_CMD line has no OPERATOR_CMD before it",
        "ERR_NESTED_BLOCK": "an OPERATOR_CMD line inside an open block",
        "ERR_NON_KEY_VALUE_LINE": "a line inside a block is not `key: value`",
        "ERR_EMPTY_LINE_IN_CMD": "an empty line between OPERATOR_CMD and END_OPERATOR_CMD",
        "ERR_NON_ASCII_IN_CMD": "a key or value holds non-ASCII text (write \\uXXXX in _json)",
        "ERR_CONTENT_HAS_NEWLINES": "a plain value continues over several lines (use _json)",
        "ERR_BLOCK_TOO_LARGE": "a block exceeds the line or character limit between its markers",
        "ERR_MISSING_REQUIRED_FIELDS": "version, id or action is missing",
        "ERR_UNSUPPORTED_VERSION": "version is not 1",
        "ERR_UNKNOWN_ACTION": "the action is not one the app knows",
        "ERR_RESERVED_ACTION": "the action is reserved for the app (operator.error)",
        "ERR_DUPLICATE_ID": "two commands of one reply share an id",
        "ERR_UNKNOWN_KEY": "a key the action does not take",
        "ERR_DUPLICATE_KEY": "a key given twice, or a key and its alias",
        "ERR_CONFLICTING_FIELDS": "both fields of a pair such as content and content_b64",
        "ERR_INVALID_FIELD": "a field value that does not parse (e.g. a number)",
        "ERR_INVALID_BASE64": "a _b64 field that is not base64 of UTF-8 text",
        "ERR_INVALID_JSON": "a _json field that is not one line of JSON of the right kind",
        "ERR_ACTION_REQUIRES_PATH": "the action needs a path and none was given",
        "ERR_ACTION_FORBIDS_PATH": "the action takes no path and one was given",
        "ERR_INTERNAL": "a fault in the app; nothing was written",
        "ERR_ESCAPED_MARKER": "a marker written markdown-escaped (OPERATOR\\_CMD)",
        # paths and files
        "ERR_WORKSPACE_INVALID": "the workspace root is not a folder",
        "ERR_PATH_OUTSIDE_WORKSPACE": "a path that leaves the workspace (absolute, ~, .., symlink)",
        "ERR_INVALID_PATH": "a path the app does not accept (e.g. a backslash)",
        "ERR_PATH_PROTECTED": "inside .git/ or the app's state folder, or the workspace root",
        "ERR_FILE_NOT_FOUND": "nothing at the path",
        "ERR_IS_A_DIRECTORY": "a folder where a file was expected",
        "ERR_NOT_A_DIRECTORY": "a file where a folder was expected",
        "ERR_NOT_A_FILE": "neither a regular file nor a folder",
        "ERR_FILE_TOO_LARGE": "the file exceeds the size limit of the action",
        "ERR_READ_FAILED": "the operating system refused a read",
        "ERR_WRITE_FAILED": "the operating system refused a write; nothing was changed",
        "ERR_ENCODING_ERROR": "the file is not UTF-8 text; it was not changed",
        "ERR_STALE_FILE": "the file changed on disk after the user saw the change",
        "ERR_TRASH_UNAVAILABLE": "no trash could take a deleted path; nothing was erased",
        "ERR_MISSING_WRITE_CONTENT": "fs.write without content or content_b64",
        "ERR_REJECTED_BY_USER": "the user rejected the command",
        "ERR_EDIT_REFUSED": "the user's edit of a change did not fit it; nothing was written",
        "ERR_PERMISSION_DENIED": "the operating system denied access to the path",
        "ERR_NAME_TOO_LONG": "a name in the path is too long for the file system",
        "ERR_SYMLINK_LOOP": "the path goes through too many symlinks (a loop)",
        "ERR_NO_SPACE": "the disk or quota is full; nothing was changed",
        "ERR_READ_ONLY_FS": "the file system is mounted read-only; nothing was changed",
        "ERR_ALREADY_EXISTS": "something already stands where the entry had to be made",
        "ERR_FILE_BUSY": "the file is busy (in use or a mount point)",
        "ERR_TOO_MANY_OPEN_FILES": "the system ran out of open-file slots",
        "ERR_IO_ERROR": "the disk reported an input/output error",
        "ERR_SECRET_READ_NOT_ASKED": "a secret read after a write of the same reply: not asked",
        "ERR_APPROVAL_TIMEOUT": "an MCP call or relayed reply got no answer in time; not run",
        "ERR_NO_REVIEWER": "a call or relayed reply needing approval found no reviewer; not run",
        # state store and undo
        "ERR_JOURNAL_FAILED": "the undo copy could not be saved; nothing was written",
        "ERR_NO_STATE_DIR": "undo asked of a session that keeps no undo journal",
        "ERR_STATE_STORE_UNAVAILABLE": "the state store cannot be opened or written; not run",
        "ERR_STATE_STORE_DAMAGED": "the state store file is damaged; writes are refused",
        "ERR_STATE_STORE_FAILED": "a write could not be recorded, so it was taken back",
        "ERR_RECOVERY_FAILED": "a crashed run could not be taken back; writes are refused",
        # patch and edits
        "ERR_MISSING_PATCH_B64": "fs.patch without patch_b64",
        "ERR_INVALID_PATCH": "a patch that is not a well-formed unified diff",
        "ERR_PATCH_CONTEXT_MISMATCH": "a hunk's context does not match the file",
        "ERR_PATCH_AMBIGUOUS": "a hunk fits two places equally near its stated line",
        "ERR_PATCH_OVERLAP": "two hunks would change overlapping lines",
        "ERR_PATCH_ALREADY_APPLIED": "a hunk's new side is already in the file",
        "ERR_MISSING_EDITS_B64": "fs.applyEdits without edits_b64",
        "ERR_INVALID_EDITS_JSON": "edits_b64 is not a valid list of edits",
        "ERR_EDIT_OUTPUT_TOO_LARGE": "an edit list would grow the file past its output bound",
        "ERR_WORK_BUDGET_EXCEEDED": "the reply's work budget (time, bytes read) is used up",
        "ERR_FOLDER_TOO_DEEP": "fs.delete of a folder nested deeper than its undo copy can be",
        "ERR_INVALID_LINE_RANGE": "an edit's line range is outside the file or reversed",
        "ERR_ANCHOR_NOT_FOUND": "an anchor or find text that is not in the file",
        "ERR_INVALID_ANCHOR_OCCURRENCE": "a repeated anchor without occurrence, or one too big",
        # regions
        "ERR_MISSING_MARKER_ID": "a region action without marker_id",
        "ERR_MISSING_CONTENT_B64": "a region action without content_b64",
        "ERR_MISSING_ANCHOR": "fs.insertRegion without anchor or anchor_b64",
        "ERR_INVALID_INSERT_POSITION": "an insert position that is not before or after",
        "ERR_UNKNOWN_LANGUAGE": "a language name the app does not know",
        "ERR_COMMENT_STYLE_REQUIRED": "the file's comment style cannot be told; give it",
        "ERR_INVALID_COMMENT_STYLE": "a half or contradictory comment style override",
        "ERR_REGION_MARKER_NOT_FOUND": "no region with the marker id",
        "ERR_REGION_MARKER_NOT_UNIQUE": "the marker id names more than one region",
        "ERR_REGION_MARKER_ORDER": "a region's END marker comes before its BEGIN",
        "ERR_REGION_MARKER_MISMATCH": "region markers that do not pair or would nest",
        "ERR_REGION_MARKER_ALREADY_EXISTS": "a region with the marker id is already in the file",
        # structure
        "ERR_MISSING_TARGET": "a structure action without target",
        "ERR_TARGET_NOT_FOUND": "no structure matches the target",
        "ERR_TARGET_AMBIGUOUS": "several structures match the target",
        "ERR_TARGET_REQUIRED": "the operation needs a target naming one structure",
        "ERR_TARGET_SHARES_LINE": "the structure shares a line with other code",
        "ERR_TEXT_NOT_FOUND": "old_text is not inside the structure",
        "ERR_TEXT_AMBIGUOUS": "old_text occurs several times inside the structure",
        "ERR_COUNT_MISMATCH": "the matches differ from expected_count (expectedCount)",
        "ERR_INVALID_EXPECTED_COUNT": "expected_count is not a positive number",
        "ERR_LANGUAGE_UNSUPPORTED": "the file's language has no structure parser",
        "ERR_PARSER_FAILED": "syntax errors lie inside the lines the operation uses",
        "ERR_INVALID_SYMBOL": "a symbol target with an empty level",
        "ERR_INVALID_OCCURRENCE": "an occurrence that is not a whole number of 1 or more",
        "ERR_INVALID_POSITION": "a move position that is missing, unknown or impossible there",
        "ERR_MISSING_DEST_TARGET": "a move without dest_target",
        "ERR_MISSING_CONTENT": "the operation needs content and none was given",
        "ERR_MISSING_OLD_TEXT": "a text replacement without old_text",
        "ERR_MISSING_NEW_TEXT": "a text replacement without new_text",
        "ERR_CONTENT_TOO_LARGE": "the content exceeds the size limit of structure operations",
        "ERR_CONTENT_EMPTY": "the content of the structure is empty",
        # search and context
        "ERR_MISSING_QUERY": "a search without a non-empty query",
        "ERR_INVALID_READSLICE_PARAMS": "fs.readSlice start or lines out of range",
        "ERR_SEARCH_PATH_IS_DIR": "fs.search of a folder (use fs.searchTree)",
        "ERR_INVALID_OUTLINE_PARAMS": "fs.outline depth out of range, or a bad after",
        "ERR_INVALID_REGEX": "a regex (fs.searchTree, fs.applyEdits) that RE2 cannot compile",
        # running commands
        "ERR_COMMAND_NOT_FOUND": "run.command's program is not found or cannot be run",
        "ERR_EXIT_STATUS": "the command ran and ended with a status other than 0 (or a signal)",
        "ERR_TIMEOUT": "the command ran past its timeout; it and all it started were ended",
        "ERR_UNKNOWN_CHECK": "run.check of a name that is not one of the workspace's checks",
        "ERR_STOPPED_BY_USER": "the user stopped the command; it and all it started were ended",
    }
)
