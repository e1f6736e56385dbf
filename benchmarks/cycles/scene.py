"""Blender (bpy) script: render one frame of the physically based set from its spec.

    blender -b --factory-startup -t 1 -P benchmarks/cycles/scene.py -- \
        --spec SPEC.json --out FRAME.png [--info INFO.json]

The spec is made by `benchmarks/cycles_bench.py` (pure Python, our layout and placement);
this script only builds what it says in Blender and renders it with Cycles. World units are
metres: mat millimetre (x, y) is Blender (x / 1000, -y / 1000), z up.

Only the part of the picture that shows the mat (and `border_margin_mm` round it) is path
traced; the PNG is full size, transparent outside that border, and INFO says where it is.
Runs inside Blender's own Python (bpy, bmesh, mathutils), which the project's checks do not
have: ruff checks it, mypy does not.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import bmesh  # type: ignore[import-not-found]
import bpy  # type: ignore[import-not-found]
from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
from mathutils import Euler, Matrix, Vector  # type: ignore[import-not-found]

MM = 0.001


def world(x: float, y: float, z: float = 0.0) -> Vector:
    return Vector((x * MM, -y * MM, z * MM))


# --- materials -------------------------------------------------------------------------

def _principled(name: str) -> tuple[object, object, object]:
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    return mat, bsdf, (nodes, links)


def image_material(name: str, path: str, roughness: float, specular: float,
                   alpha: bool = False) -> object:
    """Printed card or paper: the image is the base colour, with a little gloss."""
    mat, bsdf, (nodes, links) = _principled(name)
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(path)
    tex.image.alpha_mode = "CHANNEL_PACKED"   # the colour as drawn, not times its coverage
    tex.interpolation = "Linear"
    tex.extension = "EXTEND"
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular"].default_value = specular
    return mat


def plain_material(name: str, rgb: tuple[float, float, float], roughness: float,
                   specular: float = 0.4) -> object:
    mat, bsdf, _ = _principled(name)
    bsdf.inputs["Base Color"].default_value = (*rgb, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular"].default_value = specular
    return mat


def wood_material(name: str, rgb: list[float], grain: float, roughness: float) -> object:
    """Dyed or painted wood: the colour (times the object's own tint, `Object.color`) darkened
    along a grain of distorted bands, each object's grain placed at random, a faint bump."""
    mat, bsdf, (nodes, links) = _principled(name)
    coords = nodes.new("ShaderNodeTexCoord")
    info = nodes.new("ShaderNodeObjectInfo")
    shift = nodes.new("ShaderNodeVectorMath")
    shift.operation = "ADD"
    spread = nodes.new("ShaderNodeVectorMath")
    spread.operation = "SCALE"
    spread.inputs[3].default_value = 0.05
    combine = nodes.new("ShaderNodeCombineXYZ")
    links.new(info.outputs["Random"], combine.inputs["X"])
    links.new(info.outputs["Random"], combine.inputs["Z"])
    links.new(combine.outputs["Vector"], spread.inputs[0])
    links.new(coords.outputs["Object"], shift.inputs[0])
    links.new(spread.outputs["Vector"], shift.inputs[1])
    wave = nodes.new("ShaderNodeTexWave")
    wave.wave_type = "RINGS"
    wave.inputs["Scale"].default_value = 180.0
    wave.inputs["Distortion"].default_value = 6.0
    wave.inputs["Detail"].default_value = 3.0
    wave.inputs["Detail Scale"].default_value = 1.5
    links.new(shift.outputs["Vector"], wave.inputs["Vector"])
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (1 - grain, 1 - grain, 1 - grain, 1)
    ramp.color_ramp.elements[1].color = (1, 1, 1, 1)
    links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
    tint = nodes.new("ShaderNodeMixRGB")
    tint.blend_type = "MULTIPLY"
    tint.inputs["Fac"].default_value = 1.0
    tint.inputs["Color1"].default_value = (*rgb, 1.0)
    links.new(info.outputs["Color"], tint.inputs["Color2"])
    dye = nodes.new("ShaderNodeMixRGB")
    dye.blend_type = "MULTIPLY"
    dye.inputs["Fac"].default_value = 1.0
    links.new(tint.outputs["Color"], dye.inputs["Color1"])
    links.new(ramp.outputs["Color"], dye.inputs["Color2"])
    links.new(dye.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular"].default_value = 0.35
    bump = nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = 0.08
    links.new(wave.outputs["Fac"], bump.inputs["Height"])
    links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    return mat


def table_material() -> object:
    """The table under the mat: a wooden top with rings."""
    return wood_material("table", [0.22, 0.11, 0.05], 0.35, 0.45)


# --- meshes -----------------------------------------------------------------------------

def _link(name: str, mesh: object) -> object:
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def slab(name: str, outline_mm: list[list[float]], z0: float, z1: float,
         uv_origin: list[float] | None = None, uv_size: list[float] | None = None) -> object:
    """A flat prism over an outline (mat mm) from z0 to z1 (mm): top face 0 (UV mapped over
    the image's rectangle), sides 1."""
    bm = bmesh.new()
    uv = bm.loops.layers.uv.new("UVMap")
    top = [bm.verts.new(world(x, y, z1)) for x, y in outline_mm]
    low = [bm.verts.new(world(x, y, z0)) for x, y in outline_mm]
    # outlines come in image order (y down); flipped y makes them clockwise seen from above
    face = bm.faces.new(list(reversed(top)))
    face.material_index = 0
    n = len(top)
    for i in range(n):
        j = (i + 1) % n
        side = bm.faces.new([top[i], top[j], low[j], low[i]])
        side.material_index = 1
    bm.faces.new(low).material_index = 1
    bmesh.ops.recalc_face_normals(bm, faces=list(bm.faces))
    if uv_origin is not None and uv_size is not None:
        for loop in face.loops:
            x, y = loop.vert.co.x / MM, -loop.vert.co.y / MM
            loop[uv].uv = ((x - uv_origin[0]) / uv_size[0], 1 - (y - uv_origin[1]) / uv_size[1])
    bm.normal_update()
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return _link(name, mesh)


def _bevelled_box(bm: object, cx: float, cy: float, z0: float, sx: float, sy: float,
                  h: float, bevel: float) -> None:
    made = bmesh.ops.create_cube(bm, size=1.0)
    verts = made["verts"]
    bmesh.ops.scale(bm, vec=Vector((sx, sy, h)), verts=verts)
    bmesh.ops.translate(bm, vec=Vector((cx, cy, z0 + h / 2)), verts=verts)
    if bevel > 0:
        edges = list({e for v in verts for e in v.link_edges})
        bmesh.ops.bevel(bm, geom=edges, offset=bevel, segments=2, affect="EDGES",
                        profile=0.5, clamp_overlap=True)


def _frustum(bm: object, r0: float, r1: float, z0: float, z1: float, segments: int = 32
             ) -> None:
    bmesh.ops.create_cone(bm, cap_ends=True, cap_tris=False, segments=segments,
                          radius1=r0, radius2=r1, depth=z1 - z0,
                          matrix=Matrix.Translation((0, 0, (z0 + z1) / 2)))


def piece_mesh(kind: str, foot: float, height: float, rounding: float) -> object:
    """A piece as a mesh in metres, its base's centre at the origin, of size 1."""
    bm = bmesh.new()
    f, h = foot * MM, height * MM
    if kind == "cube":
        _bevelled_box(bm, 0, 0, 0, f, f, h, max(0.5, rounding) * MM)
    elif kind == "castle":
        body = 0.8 * h
        _bevelled_box(bm, 0, 0, 0, f, f, body, max(0.6, rounding) * MM)
        m = f * 0.3
        for sx in (-1, 1):
            for sy in (-1, 1):
                _bevelled_box(bm, sx * (f - m) / 2, sy * (f - m) / 2, body - 0.2 * MM, m, m,
                              h - body + 0.2 * MM, 0.4 * MM)
    elif kind == "emperor":
        _frustum(bm, f / 2, f / 2 * 0.95, 0, 0.15 * h)
        _frustum(bm, f * 0.34, f * 0.2, 0.15 * h, 0.88 * h)
        bmesh.ops.create_uvsphere(bm, u_segments=24, v_segments=12, radius=0.12 * h,
                                  matrix=Matrix.Translation((0, 0, 0.88 * h)))
    elif kind in ("cylinder", "disc"):
        _frustum(bm, f / 2, f / 2, 0, h, 40)
        bevel = min(0.6, height / 4) * MM
        bm.normal_update()
        edges = [e for e in bm.edges
                 if any(abs(face.normal.z) > 0.9 for face in e.link_faces)]
        bmesh.ops.bevel(bm, geom=edges, offset=bevel, segments=2, affect="EDGES", profile=0.5,
                        clamp_overlap=True)
    for face in bm.faces:
        face.smooth = kind in ("emperor", "cylinder", "disc")
    mesh = bpy.data.meshes.new(kind)
    bm.to_mesh(mesh)
    bm.free()
    if kind in ("emperor", "cylinder", "disc"):
        mesh.use_auto_smooth = True
        mesh.auto_smooth_angle = math.radians(40)
    return mesh


# --- the scene --------------------------------------------------------------------------

def build(spec: dict) -> object:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    tex = spec["textures"]
    # the table and the mat
    table = bpy.data.meshes.new("table")
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=1, y_segments=1, size=2.0)
    bm.to_mesh(table)
    bm.free()
    top = _link("table", table)
    top.location = world(450, 450, 0)
    top.data.materials.append(table_material())
    w, h = tex["mat"]["size_mm"]
    mat = slab("mat", [[0, 0], [w, 0], [w, h], [0, h]], 0.0, tex["mat"]["thickness_mm"],
               [0, 0], [w, h])
    mat.data.materials.append(image_material("paper", tex["mat"]["image"], 0.8, 0.3))
    mat.data.materials.append(plain_material("paper-edge", (0.8, 0.8, 0.78), 0.9))
    base = tex["mat"]["thickness_mm"]
    edge = plain_material("card-edge", (0.30, 0.26, 0.21), 0.8, 0.2)
    for kind, items in (("tile", tex["tiles"]), ("card", tex["cards"])):
        for i, item in enumerate(items):
            obj = slab(f"{kind}-{i}", item["outline_mm"], base, base + item["thickness_mm"],
                       item["origin_mm"], item["size_mm"])
            obj.data.materials.append(image_material(f"{kind}-{i}", item["image"],
                                                     0.45 if kind == "tile" else 0.55, 0.45))
            obj.data.materials.append(edge)
    # the pieces
    meshes: dict[tuple, object] = {}
    materials: dict[tuple, object] = {}
    for i, p in enumerate(spec["pieces"]):
        key = (p["kind"], p["footprint_mm"], p["height_mm"], round(p["rounding"] * 2) / 2)
        if key not in meshes:
            meshes[key] = piece_mesh(*key)
        look = (p["kind"], p["colour"])
        if look not in materials:
            if p["finish"] == "wood":
                materials[look] = wood_material(f"{look}", [1, 1, 1], 0.18, 0.5)
            elif p["finish"] == "paint":
                materials[look] = wood_material(f"{look}", [1, 1, 1], 0.05, 0.4)
            else:
                materials[look] = wood_material(f"{look}", [1, 1, 1], 0.03, 0.7)
        if not meshes[key].materials:
            meshes[key].materials.append(None)
        obj = _link(f"piece-{i}", meshes[key])
        obj.material_slots[0].link = "OBJECT"
        obj.material_slots[0].material = materials[look]
        # each piece's own dye (our renderer's colour and tint): the material multiplies it
        obj.color = (*p["rgb"], 1.0)
        obj.location = world(p["x"], p["y"], p["z"])
        obj.rotation_euler = Euler((0, 0, math.radians(-p["rot"])))
        obj.scale = (p["size"],) * 3
    # the lamp, pointed at the mat's centre, and the room round it
    lamp = spec["lamp"]
    light = bpy.data.lights.new("lamp", "AREA")
    light.shape = "DISK"
    light.size = lamp["size_mm"] * MM
    light.energy = lamp["power_w"]
    light.color = lamp["rgb"]
    light_obj = _link("lamp", light)
    light_obj.location = world(lamp["x_mm"], lamp["y_mm"], lamp["z_mm"])
    aim = world(w / 2, h / 2, 0) - light_obj.location
    light_obj.rotation_euler = aim.to_track_quat("-Z", "Y").to_euler()
    world_ = bpy.data.worlds.new("room")
    world_.use_nodes = True
    bg = world_.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*lamp["ambient_rgb"], 1.0)
    bg.inputs["Strength"].default_value = lamp["ambient"]
    scene.world = world_
    # the camera
    cam_spec = spec["camera"]
    cam = bpy.data.cameras.new("pi")
    cam.sensor_fit = "VERTICAL"
    cam.angle_y = math.radians(cam_spec["fov_v_deg"])
    cam.clip_start = 0.05
    cam_obj = _link("pi", cam)
    cam_obj.location = world(cam_spec["x_mm"], cam_spec["y_mm"], cam_spec["height_mm"])
    cam_obj.rotation_euler = Euler((math.radians(cam_spec["tilt_x_deg"]),
                                    math.radians(cam_spec["tilt_y_deg"]),
                                    math.radians(cam_spec["roll_deg"])), "XYZ")
    scene.camera = cam_obj
    return scene


def configure(scene: object, spec: dict) -> list[int]:
    """Cycles on the CPU with a few samples, the picture as a camera's (sRGB, no filmic
    look); renders only the mat's part of the frame. Returns that part in pixels."""
    cam = spec["camera"]
    r = scene.render
    r.engine = "CYCLES"
    r.resolution_x, r.resolution_y = cam["width"], cam["height"]
    r.resolution_percentage = 100
    r.image_settings.file_format = "PNG"
    r.image_settings.color_mode = "RGBA"
    r.image_settings.color_depth = "8"
    r.threads_mode = "FIXED"
    r.threads = 1
    c = scene.cycles
    c.device = "CPU"
    c.samples = spec["render"]["samples"]
    c.use_adaptive_sampling = True
    c.adaptive_threshold = 0.02
    c.use_denoising = False
    c.max_bounces = 3
    c.diffuse_bounces = 2
    c.glossy_bounces = 1
    c.transmission_bounces = 0
    c.transparent_max_bounces = 0
    c.caustics_reflective = False
    c.caustics_refractive = False
    c.sample_clamp_indirect = 5.0
    c.seed = int(spec["seed"]) % 100000 + 7 * int(spec["index"])
    scene.view_settings.view_transform = "Standard"
    scene.view_settings.look = "None"
    scene.view_settings.exposure = 0.0
    # the border: the mat's corners and a margin round it, as the camera sees them
    w, h = spec["textures"]["mat"]["size_mm"]
    m = spec["render"]["border_margin_mm"]
    bpy.context.view_layer.update()
    pts = [world_to_camera_view(scene, scene.camera, world(x, y, 0))
           for x in (-m, w / 2, w + m) for y in (-m, h / 2, h + m)]
    x0 = max(0.0, min(p.x for p in pts))
    x1 = min(1.0, max(p.x for p in pts))
    y0 = max(0.0, min(p.y for p in pts))
    y1 = min(1.0, max(p.y for p in pts))
    r.use_border = True
    r.use_crop_to_border = False
    r.border_min_x, r.border_max_x, r.border_min_y, r.border_max_y = x0, x1, y0, y1
    W, H = cam["width"], cam["height"]
    # in pixels, y down, rounded inwards
    return [math.ceil(x0 * W), math.ceil((1 - y1) * H), math.floor(x1 * W),
            math.floor((1 - y0) * H)]


def main() -> None:
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    ap = argparse.ArgumentParser()
    ap.add_argument("--spec", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--info")
    ap.add_argument("--percent", type=int, default=100, help="a smaller preview")
    ap.add_argument("--samples", type=int, help="instead of the spec's")
    args = ap.parse_args(argv)
    with open(args.spec, encoding="utf-8") as f:
        spec = json.load(f)
    t0 = time.monotonic()
    scene = build(spec)
    if args.samples:
        spec["render"]["samples"] = args.samples
    border = configure(scene, spec)
    scene.render.resolution_percentage = args.percent
    built = time.monotonic() - t0
    scene.render.filepath = args.out
    bpy.ops.render.render(write_still=True)
    if args.info:
        with open(args.info, "w", encoding="utf-8") as f:
            json.dump({"border_px": border, "build_seconds": round(built, 2),
                       "render_seconds": round(time.monotonic() - t0 - built, 2)}, f)


if __name__ == "__main__":
    main()
