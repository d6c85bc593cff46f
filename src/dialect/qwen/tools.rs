//! Qwen Code 0.24.4's tool names and the other names its hook matchers
//! accept for each (display name, `…Tool`, legacy names, Claude Code's),
//! as its own alias tables give them; and its matcher read into hookrun's
//! regex syntax.

/// Each tool's canonical name (what hooks see as `tool_name`) and its
/// other names.
pub(super) const ALIASES: &[(&str, &[&str])] = &[
    ("exec", &["Exec", "ExecTool"]),
    ("edit", &["Edit", "EditTool", "replace"]),
    ("write_file", &["WriteFile", "WriteFileTool", "Write"]),
    ("read_file", &["ReadFile", "ReadFileTool", "Read"]),
    ("zoom_image", &["ZoomImage", "ZoomImageTool"]),
    (
        "grep_search",
        &["Grep", "GrepTool", "search_file_content", "SearchFiles"],
    ),
    ("glob", &["Glob", "GlobTool", "FindFiles"]),
    ("run_shell_command", &["Shell", "ShellTool", "Bash"]),
    (
        "todo_write",
        &["TodoList", "TodoListTool", "TodoWrite", "TodoWriteTool"],
    ),
    ("save_memory", &["SaveMemory", "SaveMemoryTool"]),
    ("agent", &["Agent", "AgentTool", "task", "Task", "TaskTool"]),
    ("skill", &["Skill", "SkillTool"]),
    ("exit_plan_mode", &["ExitPlanMode", "ExitPlanModeTool"]),
    ("enter_plan_mode", &["EnterPlanMode", "EnterPlanModeTool"]),
    ("web_fetch", &["WebFetch", "WebFetchTool"]),
    ("web_search", &["WebSearch", "WebSearchTool"]),
    ("image_gen", &["ImageGen", "ImageGenTool"]),
    (
        "list_directory",
        &["ListFiles", "ListFilesTool", "ReadFolder"],
    ),
    ("lsp", &["Lsp", "LspTool"]),
    (
        "ask_user_question",
        &["AskUserQuestion", "AskUserQuestionTool"],
    ),
    ("cron_create", &["CronCreate", "CronCreateTool"]),
    ("cron_list", &["CronList", "CronListTool"]),
    ("cron_delete", &["CronDelete", "CronDeleteTool"]),
    ("loop_wakeup", &["LoopWakeup", "LoopWakeupTool"]),
    (
        "create_sub_session",
        &["CreateSubSession", "CreateSubSessionTool"],
    ),
    ("list_agents", &["ListAgents", "ListAgentsTool"]),
    ("task_stop", &["TaskStop", "TaskStopTool"]),
    ("task_create", &["TaskCreate", "TaskCreateTool"]),
    ("task_update", &["TaskUpdate", "TaskUpdateTool"]),
    ("task_list", &["TaskList", "TaskListTool"]),
    ("team_create", &["TeamCreate", "TeamCreateTool"]),
    ("team_delete", &["TeamDelete", "TeamDeleteTool"]),
    (
        "team_plan_approval",
        &["TeamPlanApproval", "TeamPlanApprovalTool"],
    ),
    (
        "request_shutdown",
        &["RequestShutdown", "RequestShutdownTool"],
    ),
    ("send_message", &["SendMessage", "SendMessageTool"]),
    (
        "structured_output",
        &["StructuredOutput", "StructuredOutputTool"],
    ),
    ("monitor", &["Monitor", "MonitorTool"]),
    ("notebook_edit", &["NotebookEdit", "NotebookEditTool"]),
    ("tool_call", &["ToolCall", "ToolCallTool"]),
    ("tool_search", &["ToolSearch", "ToolSearchTool"]),
    (
        "read_mcp_resource",
        &["ReadMcpResource", "ReadMcpResourceTool"],
    ),
    ("enter_worktree", &["EnterWorktree", "EnterWorktreeTool"]),
    ("exit_worktree", &["ExitWorktree", "ExitWorktreeTool"]),
    ("workflow", &["Workflow", "WorkflowTool"]),
    ("artifact", &["Artifact", "ArtifactTool"]),
    ("record_artifact", &["RecordArtifact", "RecordArtifactTool"]),
    ("record_source", &["RecordSource", "RecordSourceTool"]),
    ("report_findings", &["ReportFindings", "ReportFindingsTool"]),
    ("get_goal", &["Goal", "GoalTool", "GetGoal"]),
    ("update_goal", &["UpdateGoal", "UpdateGoalTool"]),
    (
        "omni_downsample_image",
        &["DownsampleImage", "DownsampleImageTool"],
    ),
    (
        "omni_downscale_video",
        &["DownscaleVideo", "DownscaleVideoTool"],
    ),
    (
        "omni_downsample_audio",
        &["DownsampleAudio", "DownsampleAudioTool"],
    ),
    (
        "omni_extract_keyframes",
        &["ExtractKeyframes", "ExtractKeyframesTool"],
    ),
    ("omni_extract_audio", &["ExtractAudio", "ExtractAudioTool"]),
    ("omni_clip_video", &["ClipVideo", "ClipVideoTool"]),
    ("omni_convert_image", &["ConvertImage", "ConvertImageTool"]),
    (
        "omni_transcribe_audio",
        &["TranscribeAudio", "TranscribeAudioTool"],
    ),
    ("omni_clip_image", &["ClipImage", "ClipImageTool"]),
    ("omni_clip_audio", &["ClipAudio", "ClipAudioTool"]),
    ("omni_caption_image", &["CaptionImage", "CaptionImageTool"]),
    ("omni_caption_audio", &["CaptionAudio", "CaptionAudioTool"]),
    ("omni_ocr_image", &["OcrImage", "OcrImageTool"]),
    (
        "omni_understand_video_segments",
        &["UnderstandVideoSegments", "UnderstandVideoSegmentsTool"],
    ),
    (
        "omni_recall_media_memory",
        &["RecallMediaMemory", "RecallMediaMemoryTool"],
    ),
    ("propose_goal", &["ProposeGoal", "ProposeGoalTool"]),
    ("display_image", &["DisplayImage", "DisplayImageTool"]),
];

/// A Qwen Code matcher as a hookrun regex (`matcher_syntax = "regex"`)
/// that matches what it matches: `""`, `*` and `.*` match everything; the
/// pattern (or, when it has a `|` and opens with neither `^` nor `(`, each
/// of its alternatives) matches a tool exactly by any of its names; else
/// it is an unanchored regex tested on the canonical name. A regex that
/// does not compile keeps only the exact names, as Qwen Code's test then
/// fails.
#[must_use]
pub(super) fn matcher_regex(tool_event: bool, pattern: &str) -> String {
    let p = pattern.trim();
    if matches!(p, "" | "*" | ".*") {
        return String::new();
    }
    let split = p.contains('|') && !p.starts_with('^') && !p.starts_with('(');
    let entries: Vec<&str> = if split {
        alternatives(p)
            .into_iter()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect()
    } else {
        vec![p]
    };
    if split && entries.iter().any(|e| matches!(*e, "*" | ".*")) {
        return String::new();
    }
    if entries.is_empty() {
        // Nothing left to match.
        return "(?!)".to_owned();
    }
    let mut exact: Vec<&str> = Vec::new();
    for e in &entries {
        exact.push(e);
        if tool_event {
            exact.extend(
                ALIASES
                    .iter()
                    .filter(|(_, names)| names.contains(e))
                    .map(|(canonical, _)| *canonical),
            );
        }
    }
    exact.dedup();
    let names: Vec<String> = exact
        .iter()
        .map(|e| fancy_regex::escape(e).into_owned())
        .collect();
    let exact = format!("^(?:{})$", names.join("|"));
    let expression = entries.join("|");
    if fancy_regex::Regex::new(&expression).is_ok() {
        format!("{exact}|{expression}")
    } else {
        exact
    }
}

/// The top-level alternatives of a pattern: `|` outside a group, a
/// character class or an escape.
fn alternatives(pattern: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut escaped, mut class, mut depth) = (0, false, false, 0usize);
    for (i, c) in pattern.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if class {
            class = c != ']';
        } else if c == '[' {
            class = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth = depth.saturating_sub(1);
        } else if c == '|' && depth == 0 {
            out.push(&pattern[start..i]);
            start = i + 1;
        }
    }
    out.push(&pattern[start..]);
    out
}
