#!/usr/bin/env python3
# Writes Sources/MockServerProtobuf/Loader/ProtoBuiltIns*.swift: the built-in .proto files as text, from the
# descriptors that Python packages carry (protobuf, googleapis-common-protos, grpcio-reflection,
# grpcio-health-checking): schema facts only, no comments. Run from the repository root.
# Writes .proto text (schema facts only) from the descriptors Python's packages carry.
import sys
from google.protobuf import descriptor_pb2 as d
import importlib

F = d.FieldDescriptorProto
SCALAR = {F.TYPE_DOUBLE:'double',F.TYPE_FLOAT:'float',F.TYPE_INT64:'int64',F.TYPE_UINT64:'uint64',F.TYPE_INT32:'int32',
 F.TYPE_FIXED64:'fixed64',F.TYPE_FIXED32:'fixed32',F.TYPE_BOOL:'bool',F.TYPE_STRING:'string',F.TYPE_BYTES:'bytes',
 F.TYPE_UINT32:'uint32',F.TYPE_SFIXED32:'sfixed32',F.TYPE_SFIXED64:'sfixed64',F.TYPE_SINT32:'sint32',F.TYPE_SINT64:'sint64'}
KEEP = ['java_package','java_outer_classname','optimize_for','java_multiple_files','go_package','deprecated','cc_enable_arenas','objc_class_prefix','csharp_namespace','swift_prefix','php_namespace','ruby_package']

def esc(s):
    out=''
    for b in s.encode():
        c=chr(b)
        if c in '"\\': out+='\\'+c
        elif 0x20<=b<0x7f: out+=c
        else: out+='\\%03o'%b
    return out

def camel(n):
    r='';up=False
    for c in n:
        if c=='_': up=True
        elif up: r+=c.upper(); up=False
        else: r+=c
    return r

SYMBOLS=set(); SCOPE=['']; PKG=['']
def collect(prefix, ms, es):
    for m in ms:
        SYMBOLS.add(prefix+'.'+m.name); collect(prefix+'.'+m.name, m.nested_type, m.enum_type)
    for e in es: SYMBOLS.add(prefix+'.'+e.name)
def short(name):
    pkg='.'+PKG[0] if PKG[0] else ''
    if not name.startswith(pkg+'.'): return name
    rest=name[len(pkg)+1:]; first=rest.split('.')[0]
    scope=SCOPE[0]
    while len(scope)>len(pkg):
        if scope+'.'+first in SYMBOLS and scope+'.'+first!=pkg+'.'+first: return name
        scope=scope[:scope.rfind('.')]
    return rest
def ftype(f):
    if f.type in SCALAR: return SCALAR[f.type]
    return short(f.type_name)

def write_enum(e, ind, syntax):
    out=[ind+'enum %s {'%e.name]
    if e.options.allow_alias: out.append(ind+'  option allow_alias = true;')
    for v in e.value: out.append(ind+'  %s = %d;'%(v.name,v.number))
    for r in e.reserved_range: out.append(ind+'  reserved %s;'%(str(r.start) if r.end==r.start else '%d to %d'%(r.start,r.end)))
    out.append(ind+'}')
    return out

def field_line(f, m, ind, syntax, in_oneof):
    opts=[]
    if f.HasField('default_value'):
        if f.type==F.TYPE_STRING: opts.append('default = "%s"'%esc(f.default_value))
        elif f.type==F.TYPE_BYTES: opts.append('default = "%s"'%f.default_value)
        else: opts.append('default = %s'%f.default_value)
    if f.json_name and f.json_name!=camel(f.name): opts.append('json_name = "%s"'%f.json_name)
    if f.options.HasField('packed'): opts.append('packed = %s'%('true' if f.options.packed else 'false'))
    o=(' ['+', '.join(opts)+']') if opts else ''
    if in_oneof: label=''
    elif f.label==F.LABEL_REPEATED: label='repeated '
    elif f.label==F.LABEL_REQUIRED: label='required '
    elif syntax=='proto2' or f.proto3_optional: label='optional '
    else: label=''
    return ind+'%s%s %s = %d%s;'%(label,ftype(f),f.name,f.number,o)

def write_message(m, ind, syntax, prefix):
    saved=SCOPE[0]; SCOPE[0]=prefix+'.'+m.name
    out=[ind+'message %s {'%m.name]
    i2=ind+'  '
    entries={}
    for n in m.nested_type:
        if n.options.map_entry: entries[prefix+'.'+m.name+'.'+n.name]=n
    nested=list(m.nested_type); ni=0
    def flush_until(entry):
        nonlocal ni
        while ni<len(nested):
            n=nested[ni]; ni+=1
            if n.options.map_entry:
                if entry is not None and n.name==entry: return
                continue
            out.extend(write_message(n,i2,syntax,prefix+'.'+m.name))
    for e in m.enum_type: out.extend(write_enum(e,i2,syntax))
    fields=list(m.field); k=0
    while k<len(fields):
        f=fields[k]
        if f.type_name and f.type_name in entries and f.label==F.LABEL_REPEATED:
            n=entries[f.type_name]
            flush_until(n.name)
            kt=ftype(n.field[0]); vt=ftype(n.field[1])
            opts=[]
            if f.json_name and f.json_name!=camel(f.name): opts.append('json_name = "%s"'%f.json_name)
            o=(' ['+', '.join(opts)+']') if opts else ''
            out.append(i2+'map<%s, %s> %s = %d%s;'%(kt,vt,f.name,f.number,o)); k+=1; continue
        if f.HasField('oneof_index') and not f.proto3_optional:
            oi=f.oneof_index
            out.append(i2+'oneof %s {'%m.oneof_decl[oi].name)
            while k<len(fields) and fields[k].HasField('oneof_index') and fields[k].oneof_index==oi and not fields[k].proto3_optional:
                out.append(field_line(fields[k],m,i2+'  ',syntax,True)); k+=1
            out.append(i2+'}'); continue
        out.append(field_line(f,m,i2,syntax,False)); k+=1
    flush_until(None)
    for r in m.extension_range: out.append(i2+'extensions %d to %s;'%(r.start,'max' if r.end==536870912 else str(r.end-1)))
    for r in m.reserved_range: out.append(i2+'reserved %s;'%(str(r.start) if r.end==r.start+1 else '%d to %d'%(r.start,r.end-1)))
    if m.reserved_name: out.append(i2+'reserved %s;'%', '.join('"%s"'%n for n in m.reserved_name))
    out.append(ind+'}')
    SCOPE[0]=saved
    return out

def proto_text(fd, rename):
    syntax=fd.syntax or 'proto2'
    SYMBOLS.clear(); PKG[0]=fd.package; collect('.'+fd.package if fd.package else '', fd.message_type, fd.enum_type)
    out=['syntax = "%s";'%syntax,'']
    if fd.package: out+=['package %s;'%fd.package,'']
    for i,dep in enumerate(fd.dependency):
        pub='public ' if i in fd.public_dependency else ''
        out.append('import %s"%s";'%(pub,rename.get(dep,dep)))
    if fd.dependency: out.append('')
    for name in KEEP:
        if fd.options.HasField(name):
            v=getattr(fd.options,name)
            if isinstance(v,bool): v='true' if v else 'false'
            elif isinstance(v,str): v='"%s"'%v
            else: v=d.FileOptions.OptimizeMode.Name(v)
            out.append('option %s = %s;'%(name,v))
    if fd.options.ListFields(): out.append('')
    for m in fd.message_type: out+=write_message(m,'',syntax,'.'+fd.package if fd.package else ''); out.append('')
    for e in fd.enum_type: out+=write_enum(e,'',syntax); out.append('')
    for s in fd.service:
        out.append('service %s {'%s.name)
        for me in s.method:
            SCOPE[0]='.'+fd.package
            out.append('  rpc %s(%s%s) returns (%s%s);'%(me.name,'stream ' if me.client_streaming else '',short(me.input_type),'stream ' if me.server_streaming else '',short(me.output_type)))
        out.append('}'); out.append('')
    return '\n'.join(out).rstrip()+'\n'


mods=[('google.protobuf.any_pb2',None),('google.protobuf.api_pb2',None),('google.protobuf.duration_pb2',None),('google.protobuf.empty_pb2',None),
('google.protobuf.field_mask_pb2',None),('google.protobuf.source_context_pb2',None),('google.protobuf.struct_pb2',None),('google.protobuf.timestamp_pb2',None),
('google.protobuf.type_pb2',None),('google.protobuf.wrappers_pb2',None),('google.protobuf.descriptor_pb2',None),
('google.rpc.status_pb2',None),('google.rpc.code_pb2',None),('google.rpc.error_details_pb2',None),
('grpc_reflection.v1alpha.reflection_pb2','grpc/reflection/v1alpha/reflection.proto'),('grpc_health.v1.health_pb2','grpc/health/v1/health.proto')]
rename={'grpc_reflection/v1alpha/reflection.proto':'grpc/reflection/v1alpha/reflection.proto','grpc_health/v1/health.proto':'grpc/health/v1/health.proto'}
import json
res={}
for mod,name in mods:
    m=importlib.import_module(mod)
    fd=d.FileDescriptorProto(); m.DESCRIPTOR.CopyToProto(fd)
    res[name or fd.name]=proto_text(fd,rename)
v1=res['grpc/reflection/v1alpha/reflection.proto'].replace('package grpc.reflection.v1alpha;','package grpc.reflection.v1;').replace('.grpc.reflection.v1alpha.','.grpc.reflection.v1.')
v1=v1.replace('option deprecated = true;\n','').replace('io.grpc.reflection.v1alpha','io.grpc.reflection.v1').replace('grpc_reflection_v1alpha','grpc_reflection_v1')
res['grpc/reflection/v1/reflection.proto']=v1
r=res

def ident(name):
    base=name.rsplit('/',1)[1][:-6]
    parts=base.split('_'); s=parts[0]+''.join(p.title() for p in parts[1:])
    if name.startswith('google/rpc/'): s='rpc'+s[0].upper()+s[1:]
    if name.startswith('grpc/reflection/v1alpha'): s='reflectionV1Alpha'
    elif name.startswith('grpc/reflection/v1/'): s='reflectionV1'
    if name.startswith('grpc/health'): s='healthV1'
    return {'struct':'structProto','type':'typeProto'}.get(s,s)
def lit(text):
    assert '"""#' not in text
    return '#"""\n'+''.join(('    '+l if l else '')+'\n' for l in text.rstrip('\n').split('\n'))+'    """#'
order=[k for k in r if k!='google/protobuf/descriptor.proto']
out=['''/// The `.proto` files that are built in, as text: the well-known types (`google/protobuf/*.proto`),
/// `google/rpc/`'s status, codes and error details, and the schemas of the services the server itself
/// answers (reflection v1 and v1alpha, health). Each holds the schema's facts (packages, messages,
/// fields, enums, services and the file options a descriptor carries), written out from the
/// descriptors that the `protobuf`, `googleapis-common-protos`, `grpcio-reflection` and
/// `grpcio-health-checking` Python packages carry, without the originals' comments
/// (Scripts/builtin-protos.py writes them). A file of the same name on a proto path is read instead.
package enum ProtoBuiltIns {
    /// Each built-in file's text, by its name.
    package static let files: [String: String] = [''']
for k in order+['google/protobuf/descriptor.proto']:
    out.append('        "%s": %s,'%(k,ident(k)))
out.append('    ]\n')
for k in order:
    out.append('    /// `%s`.'%k)
    out.append('    static let %s = %s\n'%(ident(k),lit(r[k])))
out[-1]=out[-1].rstrip('\n')
out.append('}')
open('Sources/MockServerProtobuf/Loader/ProtoBuiltIns.swift','w').write('\n'.join(out)+'\n')
k='google/protobuf/descriptor.proto'
open('Sources/MockServerProtobuf/Loader/ProtoBuiltIns+Descriptor.swift','w').write('''extension ProtoBuiltIns {
    /// `%s`: the schema of descriptors themselves (proto2), which custom options extend.
    static let descriptor = %s
}
'''%(k,lit(r[k])))
