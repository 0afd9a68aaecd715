/** The capture step: the visit's screenshot and PDF hosted under /assets/, and `function`'s value. */
import type { FunctionResult, VisitResult } from "../../browser/types.ts";
import type { AnimatedMedia, MediaObject } from "../../util/payload_types.ts";
import type { RecordedVideo } from "../../browser/record.ts";
import { prettyDuration } from "../../media/pretty.ts";
import { hostAsset } from "../assets.ts";
import type { StepContext } from "./context.ts";

export interface Capture {
  screenshot?: MediaObject;
  pdf?: MediaObject;
  function?: FunctionResult;
  statusCode: number;
}

export async function hostCapture(
  context: StepContext,
  visit: Promise<VisitResult>,
): Promise<Capture> {
  const { params, services, credentialed } = context;
  const started = performance.now();
  try {
    const result = await visit;
    const capture: Capture = { statusCode: result.statusCode };
    if (params.screenshot !== null && result.screenshot) {
      capture.screenshot = await hostAsset(services, {
        bytes: result.screenshot.bytes,
        type: result.screenshot.type === "jpeg" ? "jpg" : "png",
        width: result.screenshot.width,
        height: result.screenshot.height,
        credentialed,
        filename: params.filename,
      });
      if (result.animated) {
        capture.screenshot.animated = await hostRecording(context, result.animated);
      }
    }
    if (params.pdf !== null && result.pdf) {
      capture.pdf = await hostAsset(services, {
        bytes: result.pdf.bytes,
        type: "pdf",
        width: null,
        height: null,
        credentialed,
        filename: params.filename,
      });
    }
    if (result.function) capture.function = result.function;
    return capture;
  } finally {
    context.timings.add("browser", performance.now() - started);
  }
}

async function hostRecording(context: StepContext, video: RecordedVideo): Promise<AnimatedMedia> {
  const hosted = await hostAsset(context.services, {
    bytes: video.bytes,
    type: video.type,
    width: video.width,
    height: video.height,
    credentialed: context.credentialed,
    filename: context.params.filename,
  });
  return {
    ...hosted,
    duration: video.durationMs,
    duration_pretty: prettyDuration(video.durationMs / 1000),
    fps: video.fps,
    codec: video.codec,
    backend: "screencast",
  };
}
